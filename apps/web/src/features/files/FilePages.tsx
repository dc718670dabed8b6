import type { CommonFileType } from "@cellfleet/contract";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { FileDetails } from "./components/FileDetails";
import { FilesListCard } from "./components/FilesListCard";
import { UploadForm } from "./components/UploadForm";
import { FILE_LIST_KINDS } from "./fileLists";
import { fileQueryOptions } from "./files.queries";

/** The list of one kind of common file (spec section 2): firmwares, packages, files. */
export function CommonFilesList({
  fileType,
  header,
}: {
  fileType: CommonFileType;
  header?: React.ReactNode;
}) {
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
