// Between a mouse (or tap) press and its release the page must not move: a click is delivered only
// when press and release land on the same element, so a button pushed down by an error message that
// appeared on the press (an input losing focus to it) never gets the click. Work that changes the
// layout in reaction to the press waits for the release here. The release counts as done after the
// click it makes has been dispatched (same task), hence the timeout.

let pressed = false;
let waiting: (() => void)[] = [];
let listening = false;

function release() {
  pressed = false;
  const run = waiting;
  waiting = [];
  for (const task of run) task();
}

function listen() {
  if (listening || typeof document === 'undefined') return;
  listening = true;
  // Capture phase: this runs before the press moves the focus (and so before any blur handler).
  document.addEventListener(
    'mousedown',
    (event) => {
      if (event.button === 0) pressed = true;
    },
    true,
  );
  document.addEventListener('mouseup', () => setTimeout(release, 0), true);
  // A press that ends outside the page, or a drag, must not hold the work back for ever.
  window.addEventListener('blur', release);
  document.addEventListener('dragend', release, true);
  document.addEventListener('keydown', release, true);
}

/** Runs `task` now, or right after the pending mouse or tap press has been released and clicked. */
export function afterPointerRelease(task: () => void): void {
  listen();
  if (pressed) waiting.push(task);
  else task();
}

listen();
