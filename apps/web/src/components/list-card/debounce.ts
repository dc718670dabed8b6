/** A debounced function: `call` restarts the wait; `cancel` drops a pending call. */
export interface Debounced<A extends unknown[]> {
  call: (...args: A) => void;
  cancel: () => void;
}

/** Runs `fn` with the latest arguments once `waitMs` passed without another call. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, waitMs: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    call: (...args) => {
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        fn(...args);
      }, waitMs);
    },
    cancel: () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
