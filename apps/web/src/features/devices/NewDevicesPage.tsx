import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate, useParams } from "react-router";
import { pushInfoMessage } from "../../app/messages/messageStore";
import { notice } from "../../app/messages/texts";
import { PageTitle } from "../../components/PageTitle";
import { ConnectPreview } from "../insight/connect/ConnectPreview";
import { useCreateDevice } from "./device.queries";
import { BulkCreateForm } from "./forms/BulkCreateForm";
import { DeviceForm } from "./forms/DeviceForm";
import { ImportDevicesForm } from "./forms/ImportDevicesForm";
import { serverErrorText } from "./forms/serverErrorText";

const MODES = ["one", "many", "import"] as const;
const EMPTY = { ident: "", description: "", tags: [], aes_key: "" };

/** /devices/new/{mode}: one device from a form, many from a pasted list or CSV, or an import file with a dry run (admins). */
export function NewDevicesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { mode } = useParams();
  const create = useCreateDevice();
  if (mode !== "one" && mode !== "many" && mode !== "import")
    return <Navigate to="/devices/new/one" replace />;

  return (
    <>
      <PageTitle>{t("routes.devicesNew")}</PageTitle>
      <Card variant="outlined">
        <Tabs
          value={mode}
          onChange={(_event, next: string) => navigate(`/devices/new/${next}`)}
          variant="scrollable"
          scrollButtons="auto"
          sx={{ px: 2 }}
        >
          {MODES.map((value) => (
            <Tab key={value} value={value} label={t(`fleet.form.mode.${value}`)} />
          ))}
        </Tabs>
        <CardContent>
          {mode === "one" ? (
            <DeviceForm
              isNew
              initial={EMPTY}
              isSaving={create.isPending}
              serverError={serverErrorText(create.error)}
              renderAside={({ ident, aesKey }) => <ConnectPreview ident={ident} aesKey={aesKey} />}
              onSubmit={(values) =>
                create.mutate(
                  {
                    ident: values.ident.trim(),
                    description: values.description.trim(),
                    tags: values.tags,
                    aes_key: values.aes_key.trim(),
                  },
                  {
                    onSuccess: (device) => {
                      pushInfoMessage({ level: "success", text: notice("success") });
                      // The key goes along once, for the device page's snippet; it is never read back.
                      const key = values.aes_key.trim().toUpperCase();
                      navigate(`/device/${device._id}`, { state: key ? { newKey: key } : null });
                    },
                  },
                )
              }
            />
          ) : mode === "many" ? (
            <BulkCreateForm />
          ) : (
            <ImportDevicesForm />
          )}
        </CardContent>
      </Card>
    </>
  );
}
