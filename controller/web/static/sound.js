// Short tones for the board's cues (the buzzer's sounds), made with WebAudio: no sound files,
// nothing fetched. Browsers allow audio only after the user has clicked or typed on the page,
// so the audio context is made when sound is switched on, and resumed on the next gesture
// after a reload.

// cue name -> its notes: [frequency in Hz, start in s, length in s, wave, volume]
const CUE_TONES = {
  move: [[660, 0, 0.07, "sine", 0.2], [880, 0.08, 0.1, "sine", 0.2]],
  roll: [[520, 0, 0.03, "triangle", 0.2], [760, 0.05, 0.03, "triangle", 0.2], [610, 0.1, 0.03, "triangle", 0.2],
    [840, 0.15, 0.03, "triangle", 0.2], [700, 0.21, 0.05, "triangle", 0.2]],
  illegal: [[196, 0, 0.18, "square", 0.07], [147, 0.2, 0.3, "square", 0.07]],
  choose: [[784, 0, 0.08, "triangle", 0.2], [659, 0.1, 0.08, "triangle", 0.2], [784, 0.2, 0.08, "triangle", 0.2]],
  takeback: [[880, 0, 0.07, "sine", 0.2], [660, 0.08, 0.12, "sine", 0.2]],
  refused: [[220, 0, 0.12, "square", 0.06]],
  ready: [[523, 0, 0.08, "sine", 0.2], [659, 0.09, 0.08, "sine", 0.2], [784, 0.18, 0.16, "sine", 0.2]],
  "game-over": [[523, 0, 0.14, "sine", 0.2], [659, 0.15, 0.14, "sine", 0.2], [784, 0.3, 0.14, "sine", 0.2],
    [1047, 0.45, 0.35, "sine", 0.2]],
};

const tones = { context: null };

export function audioContext() {
  if (!tones.context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    tones.context = new Context();
  }
  if (tones.context.state === "suspended") tones.context.resume().catch(() => {});
  return tones.context;
}

// Play a cue's tones; false when the cue has none or the browser has no WebAudio.
export function playCue(name) {
  const notes = CUE_TONES[name];
  const context = notes ? audioContext() : null;
  if (!context) return false;
  const t0 = context.currentTime + 0.02;
  for (const [frequency, at, length, wave, volume] of notes) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = wave;
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, t0 + at);
    gain.gain.exponentialRampToValueAtTime(volume, t0 + at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + length);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(t0 + at);
    oscillator.stop(t0 + at + length + 0.02);
  }
  return true;
}
