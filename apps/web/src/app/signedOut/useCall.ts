import { useCallback, useRef, useState } from "react";

interface CallState {
  isPending: boolean;
  /** The last call's error, or null (cleared when a call starts). */
  error: unknown;
  isError: boolean;
}

/**
 * One async call with its pending and error state: what the signed-out pages used TanStack Query's
 * useMutation for, without loading it on /login (ADR 018, round 4). A result after unmount is dropped.
 */
export function useCall<A>(run: (input: A) => Promise<unknown>): CallState & { call: (input: A) => void } {
  const [state, setState] = useState<CallState>({ isPending: false, error: null, isError: false });
  const runRef = useRef(run);
  runRef.current = run;
  const latest = useRef(0);
  const call = useCallback((input: A) => {
    const id = ++latest.current;
    setState({ isPending: true, error: null, isError: false });
    runRef.current(input).then(
      () => {
        if (id === latest.current) setState({ isPending: false, error: null, isError: false });
      },
      (error: unknown) => {
        if (id === latest.current) setState({ isPending: false, error, isError: true });
      },
    );
  }, []);
  return { ...state, call };
}
