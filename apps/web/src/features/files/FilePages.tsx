import type { CommonFileType } from "@cellfleet/contract";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { SavedScriptPage } from "../commands/scripts/SavedScriptPage";
import { SavedScriptsList } from "../commands/scripts/SavedScriptsList";
import { FileDetails } from "./components/FileDetails";
import { FilesListCard } from "./components/FilesListCard";
import { UploadForm } from "./components/UploadForm";
import { FILE_LIST_KINDS, fileTypeParam, SCRIPTS_FILE_TYPES } from "./fileLists";
import { fileQueryOptions } from "./files.queries";

/** The list of one kind of common file (spec section 2): firmwares, packages, files. */
function CommonFilesList({ fileType, header }: { fileType: CommonFileType; header?: React.ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const kind = FILE_LIST_KINDS[fileType];
  return (
    <FilesListCard
      prefix={`files.${fileType}`}
      title={t(`files.lists.${fileType}`)}
      request={{ file_type: fileType }}
      columns={["user"]}
      linkOf={(file) => kind.item(file._id)}
      onAdd={() => navigate(kind.create)}
      emptyText={t(`files.empty.${fileType}`)}
      testId={`files-${fileType}`}
      header={header}
    />
  );
}

/** /firmwares: the domain's firmware images. */
export function FirmwaresPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t("routes.firmwares")}</PageTitle>
      <CommonFilesList fileType="firmware" />
    </>
  );
}

/** /packages: the domain's application packages. */
export function PackagesPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t("routes.packages")}</PageTitle>
      <CommonFilesList fileType="package" />
    </>
  );
}

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

/** The upload page of a kind: /firmwares/new, /packages/new, /script/new?file_type=… */
export function FileUploadPage({ fileType }: { fileType: CommonFileType }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const kind = FILE_LIST_KINDS[fileType];
  return (
    <>
      <PageTitle>{t(`files.new.${fileType}`)}</PageTitle>
      <UploadForm
        fileType={fileType}
        onDone={() => navigate(kind.list)}
        onCancel={() => navigate(kind.list)}
      />
    </>
  );
}

/** One common file's page: /firmware/{id}, /package/{id}, /script/{id}?file_type=… */
export function FilePage({ fileType, fileId }: { fileType: CommonFileType; fileId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useQuery(fileQueryOptions(fileId));
  return (
    <>
      <PageTitle>{query.data?.filename ?? t(`files.item.${fileType}`)}</PageTitle>
      <QueryState query={query}>
        {(file) => <FileDetails file={file} onDeleted={() => navigate(FILE_LIST_KINDS[fileType].list)} />}
      </QueryState>
    </>
  );
}

/** /firmware/{file_id} and /package/{file_id}. */
export function FileRoutePage({ fileType }: { fileType: CommonFileType }) {
  const { file_id: fileId = "" } = useParams();
  return <FilePage fileType={fileType} fileId={fileId} />;
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
