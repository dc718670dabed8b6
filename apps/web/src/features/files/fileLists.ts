import { type CommonFileType, fileSizeParts, isCommonFileType } from "@cellfleet/contract";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { formatNumber } from "../../app/format";

/** Where each kind of common file lives in the console: its list, its upload page and its own page. */
export interface FileListKind {
  fileType: CommonFileType;
  list: string;
  create: string;
  item: (id: string) => string;
}

/** The lists of spec section 2: firmwares, packages, and the files of /scripts by file_type. */
export const FILE_LIST_KINDS: Record<CommonFileType, FileListKind> = {
  firmware: {
    fileType: "firmware",
    list: "/firmwares",
    create: "/firmwares/new",
    item: (id) => `/firmware/${id}`,
  },
  package: {
    fileType: "package",
    list: "/packages",
    create: "/packages/new",
    item: (id) => `/package/${id}`,
  },
  file: {
    fileType: "file",
    list: "/scripts?file_type=file",
    create: "/script/new?file_type=file",
    item: (id) => `/script/${id}?file_type=file`,
  },
  bin: {
    fileType: "bin",
    list: "/scripts?file_type=bin",
    create: "/script/new?file_type=bin",
    item: (id) => `/script/${id}?file_type=bin`,
  },
};

/** The tabs of /scripts, in order; `file_type` picks one. */
export const SCRIPTS_FILE_TYPES: readonly CommonFileType[] = ["file", "bin", "firmware", "package"];

/** The common file type a `file_type` search parameter names, or the given default. */
export function fileTypeParam(value: string | null, fallback: CommonFileType): CommonFileType {
  return value !== null && isCommonFileType(value) ? value : fallback;
}

/** A size in base-1024 units in the interface's language: "1.5 MB", "1,5 МБ" (spec section 9). */
export function useFormatFileSize(): (bytes: number) => string {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return useCallback(
    (bytes: number) => {
      const { value, unit } = fileSizeParts(bytes);
      return `${formatNumber(value, language)} ${t(`files.units.${unit}`)}`;
    },
    [language, t],
  );
}
