// What the page's parts share: the latest snapshot (and its number), whether this page may
// change the game, and the boards drawn on it (svg element -> drawn board: cells, key, look).

export const state = {
  snap: null, seq: 0, control: false, tokenRequired: false,
  boards: new Map(),
};
