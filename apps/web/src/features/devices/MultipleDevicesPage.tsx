import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { pushInfoMessage } from "../../app/messages/messageStore";
import { useOffers } from "../../app/session/useOffers";
import { DeleteButton } from "../../components/DeleteButton";
import { TagsInput, useListState } from "../../components/list-card";
import { PageTitle } from "../../components/PageTitle";
import { DeviceListCard } from "./components/DeviceListCard";
import { useDevicesMultiple } from "./device.queries";
import { tagFrequenciesQueryOptions } from "./devices.queries";
import { useDeviceLiveUpdates } from "./useDeviceLiveUpdates";

const MULTIPLE_LIST_PREFIX = "devices.multiple";

/** /devices/multiple: pick devices from the filtered list, then add or remove tags, or delete them (admins). */
export function MultipleDevicesPage() {
  const { t } = useTranslation();
  const offers = useOffers();
  const [state, update] = useListState(MULTIPLE_LIST_PREFIX, { field: "ident", direction: "asc" });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [tags, setTags] = useState<string[]>([]);
  const frequencies = useQuery(tagFrequenciesQueryOptions());
  const multiple = useDevicesMultiple();
  const canEdit = offers("devices.edit");
  useDeviceLiveUpdates();

  const handleSelect = useCallback((ids: string[], isSelected: boolean) => {
    setSelected((previous) => {
      const next = new Set(previous);
      for (const id of ids) {
        if (isSelected) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }, []);

  function run(action: "add_tags" | "remove_tags" | "delete") {
    multiple.mutate(
      { targets: [...selected], action, ...(action === "delete" ? {} : { tags }) },
      {
        onSuccess: (result) => {
          pushInfoMessage({ level: "success", text: t("fleet.multiple.done", { count: result.affected }) });
          if (action === "delete") setSelected(new Set());
        },
      },
    );
  }

  const hasTargets = selected.size > 0;
  return (
    <>
      <PageTitle>{t("routes.devicesMultiple")}</PageTitle>
      <Card variant="outlined" sx={{ mb: 2 }}>
        <CardContent>
          <Stack direction="row" sx={{ gap: 2, alignItems: "center", flexWrap: "wrap" }}>
            <Typography sx={{ minWidth: 140 }} data-testid="selected-count">
              {t("fleet.multiple.selected", { count: selected.size })}
            </Typography>
            {canEdit ? (
              <>
                <TagsInput value={tags} onChange={setTags} frequencies={frequencies.data} limitTags={4} />
                <Button
                  variant="outlined"
                  disabled={!hasTargets || tags.length === 0 || multiple.isPending}
                  onClick={() => run("add_tags")}
                >
                  {t("fleet.multiple.addTags")}
                </Button>
                <Button
                  variant="outlined"
                  disabled={!hasTargets || tags.length === 0 || multiple.isPending}
                  onClick={() => run("remove_tags")}
                >
                  {t("fleet.multiple.removeTags")}
                </Button>
              </>
            ) : (
              <Typography color="text.secondary">{t("fleet.multiple.viewOnly")}</Typography>
            )}
            {offers("devices.delete") ? (
              <DeleteButton
                hasText
                label={t("fleet.multiple.delete")}
                disabled={!hasTargets || multiple.isPending}
                onDelete={() => run("delete")}
              />
            ) : null}
            <Button disabled={!hasTargets} onClick={() => setSelected(new Set())}>
              {t("fleet.multiple.clearSelection")}
            </Button>
          </Stack>
        </CardContent>
      </Card>
      <DeviceListCard
        title={t("fleet.dashboard.devices")}
        prefix={MULTIPLE_LIST_PREFIX}
        state={state}
        onChange={update}
        selected={selected}
        onSelect={handleSelect}
      />
    </>
  );
}
