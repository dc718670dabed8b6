import { useMutation } from "@tanstack/react-query";
import { useInvalidateDevices } from "./device.queries";
import { applyDeviceImport, checkDeviceImport } from "./deviceImport.api";

/** The dry run of an import file: writes nothing, so nothing is invalidated. */
export function useCheckDeviceImport() {
  return useMutation({ mutationFn: (file: File) => checkDeviceImport(file) });
}

/** Applies the checked file; the device lists, totals and tags are read again. */
export function useApplyDeviceImport() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: ({ file, plan }: { file: File; plan: string }) => applyDeviceImport(file, plan),
    onSuccess: () => invalidate(),
  });
}
