import type { CommonFileType } from "@cellfleet/contract";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import { useTranslation } from "react-i18next";
import { useParams, useSearchParams } from "react-router";
import { PageTitle } from "../../../components/PageTitle";
import { CommonFilesList, FilePage, FileUploadPage } from "../../files/FilePages";
import { fileTypeParam, SCRIPTS_FILE_TYPES } from "../../files/fileLists";
import { SavedScriptPage } from "./SavedScriptPage";
import { SavedScriptsList } from "./SavedScriptsList";

// /scripts and /script/{id} show saved scripts and, by `file_type`, the common files (spec section
// 2): the scripts are this feature's, the file lists and pages the files feature's.

/** /scripts with its file_type parameter: the common files of each type, one tab a type. */
export function ScriptsFilesPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const raw = params.get("file_type");
  // Without a file_type the page opens on the saved scripts (issue 13); a file_type names a file list.
  const fileType = fileTypeParam(raw, "file");
  const tab = raw === null ? "saved" : fileType;
  const tabs = (
    <Tabs
      value={tab}
      onChange={(_event, value: CommonFileType | "saved") =>
        setParams(value === "saved" ? {} : { file_type: value })
      }
      variant="scrollable"
      allowScrollButtonsMobile
      sx={{ width: "100%", minHeight: 40 }}
    >
      <Tab
        value="saved"
        label={t("scripts.script.tab")}
        sx={{ minHeight: 40 }}
        data-testid="saved-scripts-tab"
      />
      {SCRIPTS_FILE_TYPES.map((type) => (
        <Tab key={type} value={type} label={t(`files.lists.${type}`)} sx={{ minHeight: 40 }} />
      ))}
    </Tabs>
  );
  return (
    <>
      <PageTitle>{t("routes.scripts")}</PageTitle>
      {tab === "saved" ? (
        <SavedScriptsList kind="script" header={tabs} />
      ) : (
        <CommonFilesList key={fileType} fileType={fileType} header={tabs} />
      )}
    </>
  );
}

/**
 * /script/{script_id}: with a file_type parameter it is a file's page (`new`: its upload page), as
 * spec section 2 says; without one it is a script, which the actions feature builds.
 */
export function ScriptRoutePage() {
  const { script_id: scriptId = "" } = useParams();
  const [params] = useSearchParams();
  const raw = params.get("file_type");
  // Without file_type it is a saved script's editor (issue 13); with it, a file of that kind.
  if (raw === null) return <SavedScriptPage kind="script" id={scriptId} />;
  const fileType = fileTypeParam(raw, "file");
  if (scriptId === "new") return <FileUploadPage fileType={fileType} />;
  return <FilePage fileType={fileType} fileId={scriptId} />;
}
