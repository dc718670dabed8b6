import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { TransportForm } from "./components/TransportForm";
import { transportQueryOptions } from "./transports.queries";

/** /notifications/transport/new and /notifications/transport/{transport_id}/edit. */
export function TransportPage() {
  const { t } = useTranslation();
  const { transport_id: id } = useParams();
  const query = useQuery({ ...transportQueryOptions(id ?? ""), enabled: id !== undefined });
  if (id === undefined) {
    return (
      <>
        <PageTitle>{t("routes.transportNew")}</PageTitle>
        <TransportForm transport={null} />
      </>
    );
  }
  return (
    <>
      <PageTitle>{query.data?.name ?? t("routes.transportEdit")}</PageTitle>
      <QueryState query={query}>
        {(transport) => <TransportForm key={transport._id} transport={transport} />}
      </QueryState>
    </>
  );
}
