// The board's own page (controller/web/static), served by the club for one board: its absolute
// /ws and /api/ requests go to that board's place here, /board/NAME/. It runs before app.js.
(function () {
  const base = location.pathname.replace(/\/+$/, "");
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    const target = new URL(url, location.href);
    if (target.pathname === "/ws") target.pathname = `${base}/ws`;
    return new NativeWebSocket(target.href, protocols);
  };
  window.WebSocket.prototype = NativeWebSocket.prototype;
  const nativeFetch = window.fetch.bind(window);
  window.fetch = (resource, init) => {
    if (typeof resource === "string" && resource.startsWith("/api/")) resource = base + resource;
    return nativeFetch(resource, init);
  };
  document.addEventListener("DOMContentLoaded", () => {
    const heading = document.querySelector("h1, header");
    if (heading) heading.insertAdjacentHTML("afterbegin",
      `<a class="club-back" href="/" style="margin-right:.6em;color:inherit">&larr; club</a>`);
    document.title = `${base.split("/").pop()} · reedboard club`;
  });
})();
