import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { RuleForm } from "./components/RuleForm";
import { ruleQueryOptions } from "./rules.queries";

/** /notifications/rule/{rule_id}: a rule (or a draft) to read or change; `new` starts an empty one. */
export function RulePage() {
  const { t } = useTranslation();
  const { rule_id: id = "new" } = useParams();
  const isNew = id === "new";
  const query = useQuery({ ...ruleQueryOptions(id), enabled: !isNew });
  return (
    <>
      <PageTitle>
        {isNew ? t("notifications.rule.newTitle") : (query.data?.name ?? t("routes.notificationRule"))}
      </PageTitle>
      {isNew ? (
        <RuleForm rule={null} />
      ) : (
        <QueryState query={query}>{(rule) => <RuleForm key={rule._id} rule={rule} />}</QueryState>
      )}
    </>
  );
}
