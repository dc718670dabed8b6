import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { PageTitle } from "../../../components/PageTitle";
import { SavedScriptPage } from "./SavedScriptPage";
import { SavedScriptsList } from "./SavedScriptsList";

/** /templates: the domain's settings templates. */
export function TemplatesPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t("routes.templates")}</PageTitle>
      <SavedScriptsList kind="template" />
    </>
  );
}

/** /templates/new and /template/{temp_id}. */
export function TemplatePage() {
  const { temp_id: id = "new" } = useParams();
  return <SavedScriptPage kind="template" id={id} />;
}
