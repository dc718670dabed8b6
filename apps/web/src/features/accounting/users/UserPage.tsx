import { type AccountingUser, mayOffer, type SessionUser } from "@cellfleet/contract";
import Alert from "@mui/material/Alert";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { pushInfoMessage } from "../../../app/messages/messageStore";
import { notice } from "../../../app/messages/texts";
import { refreshSession } from "../../../app/session/session.api";
import { useSession } from "../../../app/session/useSession";
import { DeleteButton } from "../../../components/DeleteButton";
import { PageTitle } from "../../../components/PageTitle";
import { QueryState } from "../../../components/QueryState";
import { tagFrequenciesQueryOptions } from "../../devices/devices.queries";
import { UserForm } from "./UserForm";
import { assignableRoles, type UserSaveBody, userFormMode } from "./userForm";
import { useDeleteUser, useResetSecondFactor, userQueryOptions, useSaveUser } from "./users.queries";

function UserEditor({ viewer, user }: { viewer: SessionUser; user: AccountingUser | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveUser(user?._id ?? "new");
  const remove = useDeleteUser();
  const resetFactor = useResetSecondFactor();
  const mode = userFormMode(viewer, user);
  const isSelf = user?._id === viewer._id;
  // The domain's tags to suggest; superusers have no device views, so they type tags.
  const tags = useQuery({
    ...tagFrequenciesQueryOptions(),
    enabled: mayOffer(viewer, "users.limitTags") && mayOffer(viewer, "devices.view"),
  });

  if (user === null && mode === "readOnly") {
    return <Alert severity="warning">{notice("accessDenied")}</Alert>;
  }

  const handleSave = (body: UserSaveBody) =>
    save.mutate(body, {
      onSuccess: (saved) => {
        pushInfoMessage({ level: "success", text: notice("informationUpdated") });
        if (isSelf) void refreshSession().catch(() => null);
        if (user === null) navigate(`/user/${saved._id}`, { replace: true });
      },
    });

  const canDelete = user !== null && !isSelf && mode === "full" && mayOffer(viewer, "users.delete", user);
  const canResetFactor = user !== null && !isSelf && mayOffer(viewer, "users.resetSecondFactor", user);
  return (
    <UserForm
      user={user}
      mode={mode}
      roleOptions={assignableRoles(viewer)}
      shape={{
        hasDomain: mayOffer(viewer, "users.anyDomain"),
        hasPolicy: mayOffer(viewer, "users.seePolicy"),
        hasPlugins: mayOffer(viewer, "users.create"),
        hasTagScope: mayOffer(viewer, "users.limitTags"),
      }}
      tagFrequencies={tags.data}
      isSaving={save.isPending}
      error={save.error}
      onSave={handleSave}
      actions={
        canDelete || canResetFactor ? (
          <>
            {canResetFactor ? (
              <DeleteButton
                hasText
                label={t("accounting.users.resetSecondFactor")}
                onDelete={() =>
                  resetFactor.mutate(user._id, {
                    onSuccess: () =>
                      pushInfoMessage({ level: "success", text: t("accounting.users.secondFactorReset") }),
                  })
                }
              />
            ) : null}
            {canDelete ? (
              <DeleteButton
                hasText
                label={t("accounting.users.delete")}
                onDelete={() =>
                  remove.mutate(user._id, {
                    onSuccess: () => {
                      pushInfoMessage({ level: "success", text: notice("success") });
                      navigate("/users", { replace: true });
                    },
                  })
                }
              />
            ) : null}
          </>
        ) : undefined
      }
    />
  );
}

/** /user/{user_id} ('new' for a new one) with the permissions of spec section 6. */
export function UserPage() {
  const { t } = useTranslation();
  const { user_id: id = "new" } = useParams();
  const viewer = useSession();
  const isNew = id === "new";
  const query = useQuery({ ...userQueryOptions(id), enabled: !isNew && viewer !== null });
  if (!viewer) return null;
  if (isNew) {
    return (
      <>
        <PageTitle>{t("accounting.users.newTitle")}</PageTitle>
        <UserEditor viewer={viewer} user={null} />
      </>
    );
  }
  return (
    <QueryState query={query}>
      {(user) => (
        <>
          <PageTitle>{user.full_name || user.username}</PageTitle>
          <UserEditor key={user._id} viewer={viewer} user={user} />
        </>
      )}
    </QueryState>
  );
}
