import type { User } from "@cellfleet/contract";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { pushInfoMessage } from "../../../app/messages/messageStore";
import { notice } from "../../../app/messages/texts";
import { useSession } from "../../../app/session/useSession";
import { DeleteButton } from "../../../components/DeleteButton";
import { PageTitle } from "../../../components/PageTitle";
import { QueryState } from "../../../components/QueryState";
import { managerQueryOptions, useDeleteManager, useSaveManager } from "../domains/domains.queries";
import { UserForm } from "../users/UserForm";

type Scope = { domainId: string } | "superuser";

function ManagerEditor({ scope, user, backPath }: { scope: Scope; user: User | null; backPath: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const viewer = useSession();
  const save = useSaveManager(scope, user?._id ?? "new");
  const remove = useDeleteManager(scope);
  const isSelf = user?._id === viewer?._id;
  const pathOf = (id: string) =>
    scope === "superuser" ? `/superuser/${id}` : `/domain/${scope.domainId}/admins/${id}`;

  return (
    <UserForm
      user={user}
      mode="full"
      roleOptions={null}
      fixedRole={scope === "superuser" ? 1 : 2}
      shape={{ hasDomain: false, hasPolicy: true, hasPlugins: true, hasTagScope: false }}
      isSaving={save.isPending}
      error={save.error}
      onSave={(body) =>
        save.mutate(body, {
          onSuccess: (saved) => {
            pushInfoMessage({ level: "success", text: notice("informationUpdated") });
            if (user === null) navigate(pathOf(saved._id), { replace: true });
          },
        })
      }
      actions={
        user && !isSelf ? (
          <DeleteButton
            hasText
            label={t("accounting.users.delete")}
            onDelete={() =>
              remove.mutate(user._id, {
                onSuccess: () => {
                  pushInfoMessage({ level: "success", text: notice("success") });
                  navigate(backPath, { replace: true });
                },
              })
            }
          />
        ) : undefined
      }
    />
  );
}

function ManagerPage({
  scope,
  userId,
  title,
  backPath,
}: {
  scope: Scope;
  userId: string;
  title: string;
  backPath: string;
}) {
  const isNew = userId === "new";
  const query = useQuery({ ...managerQueryOptions(scope, userId), enabled: !isNew });
  if (isNew) {
    return (
      <>
        <PageTitle>{title}</PageTitle>
        <ManagerEditor scope={scope} user={null} backPath={backPath} />
      </>
    );
  }
  return (
    <QueryState query={query}>
      {(user) => (
        <>
          <PageTitle>{user.full_name || user.username}</PageTitle>
          <ManagerEditor key={user._id} scope={scope} user={user} backPath={backPath} />
        </>
      )}
    </QueryState>
  );
}

/** /superuser/{user_id} ('new' for a new one). */
export function SuperuserPage() {
  const { t } = useTranslation();
  const { user_id: userId = "new" } = useParams();
  return (
    <ManagerPage
      scope="superuser"
      userId={userId}
      title={t("accounting.superusers.newTitle")}
      backPath="/superusers"
    />
  );
}

/** /domain/{domain_id}/admins/{user_id} ('new' for a new one). */
export function DomainAdminPage() {
  const { t } = useTranslation();
  const { domain_id: domainId = "", user_id: userId = "new" } = useParams();
  return (
    <ManagerPage
      scope={{ domainId }}
      userId={userId}
      title={t("accounting.domains.newAdminTitle")}
      backPath={`/domain/${domainId}`}
    />
  );
}
