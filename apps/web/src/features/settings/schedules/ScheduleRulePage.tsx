import { isScheduleClass } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { PageTitle } from "../../../components/PageTitle";
import { QueryState } from "../../../components/QueryState";
import { ScheduleRuleForm } from "./components/ScheduleRuleForm";
import { scheduleRuleQueryOptions } from "./schedules.queries";

/** /{class}/task/{task_id} (spec section 2, admins): a backup or journal rule; `new` starts an empty one. */
export function ScheduleRulePage() {
  const { t } = useTranslation();
  const { class: classValue = "", task_id: id = "new" } = useParams();
  const type = isScheduleClass(classValue) ? classValue : null;
  const isNew = id === "new";
  const query = useQuery({
    ...scheduleRuleQueryOptions(type ?? "backup", id),
    enabled: type !== null && !isNew,
  });
  if (type === null) return <Alert severity="warning">{t("schedules.unknownClass")}</Alert>;
  return (
    <>
      <PageTitle>
        {isNew ? t(`schedules.newTitle.${type}`) : (query.data?.name ?? t(`schedules.title.${type}`))}
      </PageTitle>
      {isNew ? (
        <ScheduleRuleForm type={type} rule={null} />
      ) : (
        <QueryState query={query}>
          {(rule) => <ScheduleRuleForm key={rule._id} type={type} rule={rule} />}
        </QueryState>
      )}
    </>
  );
}
