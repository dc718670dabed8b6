import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { pushInfoMessage } from "../../app/messages/messageStore";
import { notice } from "../../app/messages/texts";
import { useOffers } from "../../app/session/useOffers";
import { DeleteButton } from "../../components/DeleteButton";
import { PageTitle } from "../../components/PageTitle";
import { QueryState } from "../../components/QueryState";
import { DevicePositionForm } from "./components/DevicePositionForm";
import { deviceDetailQueryOptions, useDeleteDevice, useUpdateDevice } from "./device.queries";
import { DeviceForm } from "./forms/DeviceForm";
import { serverErrorText } from "./forms/serverErrorText";

/**
 * /device/edit/{dev_id}: description, tags and the AES key (empty removes it). The key is never
 * shown, since the server never sends it; leaving the field empty keeps the current key. Who may
 * edit and delete is the permission table's answer; anyone else sees the form read-only.
 */
export function EditDevicePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const offers = useOffers();
  const { dev_id: id = "" } = useParams();
  const detail = useQuery(deviceDetailQueryOptions(id));
  const update = useUpdateDevice(id);
  const remove = useDeleteDevice();
  // Operators may open the page (route table) but not edit: the form is shown read-only.
  const isReadOnly = !offers("devices.edit");

  return (
    <>
      <PageTitle>
        {detail.data ? `${t("routes.deviceEdit")}: ${detail.data.device.ident}` : t("routes.deviceEdit")}
      </PageTitle>
      <QueryState query={detail}>
        {({ device }) => (
          <Card variant="outlined">
            <CardContent>
              {isReadOnly ? (
                <Alert severity="info" sx={{ mb: 2, maxWidth: 640 }}>
                  {t("fleet.multiple.viewOnly")}
                </Alert>
              ) : null}
              {device.has_key ? (
                <Alert severity="info" sx={{ mb: 2, maxWidth: 640 }}>
                  {t(isReadOnly ? "fleet.form.keyIsSetReadOnly" : "fleet.form.keyIsSet")}
                </Alert>
              ) : null}
              <DeviceForm
                isNew={false}
                initial={{
                  ident: device.ident,
                  description: device.description,
                  tags: device.tags,
                  aes_key: "",
                }}
                isSaving={update.isPending}
                isReadOnly={isReadOnly}
                serverError={serverErrorText(update.error ?? remove.error)}
                onSubmit={(values) =>
                  update.mutate(
                    {
                      description: values.description.trim(),
                      tags: values.tags,
                      ...(values.aes_key.trim() ? { aes_key: values.aes_key.trim() } : {}),
                    },
                    {
                      onSuccess: () => {
                        pushInfoMessage({ level: "success", text: notice("informationUpdated") });
                        navigate(`/device/${id}`);
                      },
                    },
                  )
                }
                extra={
                  <>
                    {device.has_key && !isReadOnly ? (
                      <Button
                        variant="outlined"
                        disabled={update.isPending}
                        onClick={() =>
                          update.mutate(
                            { aes_key: "" },
                            {
                              onSuccess: () =>
                                pushInfoMessage({ level: "success", text: notice("informationUpdated") }),
                            },
                          )
                        }
                      >
                        {t("fleet.form.removeKey")}
                      </Button>
                    ) : null}
                    {offers("devices.delete") ? (
                      <DeleteButton
                        hasText
                        disabled={remove.isPending}
                        onDelete={() =>
                          remove.mutate(id, {
                            onSuccess: () => {
                              pushInfoMessage({ level: "success", text: notice("success") });
                              navigate("/dashboard");
                            },
                          })
                        }
                      />
                    ) : null}
                  </>
                }
              />
              <DevicePositionForm
                position={device.position}
                isSaving={update.isPending}
                isReadOnly={isReadOnly}
                onSave={(position) =>
                  update.mutate(
                    { position },
                    {
                      onSuccess: () =>
                        pushInfoMessage({ level: "success", text: notice("informationUpdated") }),
                    },
                  )
                }
              />
            </CardContent>
          </Card>
        )}
      </QueryState>
    </>
  );
}
