import type { Device, UpdateDevice } from "@cellfleet/contract";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";

interface DevicePositionFormProps {
  position: Device["position"];
  isSaving: boolean;
  isReadOnly: boolean;
  onSave: (position: NonNullable<UpdateDevice["position"]> | null) => void;
}

/** A degree value within ±limit, or null when the text is not one. */
function degrees(text: string, limit: number): number | null {
  const value = Number(text.trim().replace(",", "."));
  return text.trim() !== "" && Number.isFinite(value) && Math.abs(value) <= limit ? value : null;
}

/**
 * The router's map position (ADR 045): where it is and who said so; an admin pins one (kept over the
 * router's GPS) or removes the pin, so the GPS places it again.
 */
export function DevicePositionForm({ position, isSaving, isReadOnly, onSave }: DevicePositionFormProps) {
  const { t } = useTranslation();
  const [latitude, setLatitude] = useState(position ? String(position.latitude) : "");
  const [longitude, setLongitude] = useState(position ? String(position.longitude) : "");
  const lat = degrees(latitude, 90);
  const lng = degrees(longitude, 180);
  const isValid = lat !== null && lng !== null;
  return (
    <Stack spacing={1.5} sx={{ mt: 3, maxWidth: 640 }} data-testid="device-position">
      <Typography variant="subtitle1">{t("map.position.title")}</Typography>
      <Typography variant="body2" color="text.secondary">
        {position ? t(`map.position.source.${position.source}`) : t("map.position.none")}
      </Typography>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5}>
        <TextField
          size="small"
          label={t("map.position.latitude")}
          value={latitude}
          disabled={isReadOnly}
          error={latitude !== "" && lat === null}
          onChange={(event) => setLatitude(event.target.value)}
          slotProps={{ htmlInput: { inputMode: "decimal" } }}
        />
        <TextField
          size="small"
          label={t("map.position.longitude")}
          value={longitude}
          disabled={isReadOnly}
          error={longitude !== "" && lng === null}
          onChange={(event) => setLongitude(event.target.value)}
          slotProps={{ htmlInput: { inputMode: "decimal" } }}
        />
      </Stack>
      {isReadOnly ? null : (
        <Stack direction="row" spacing={1.5}>
          <Button
            variant="contained"
            disabled={!isValid || isSaving}
            onClick={() => isValid && onSave({ latitude: lat, longitude: lng })}
          >
            {t("map.position.pin")}
          </Button>
          {position?.source === "admin" ? (
            <Button variant="outlined" disabled={isSaving} onClick={() => onSave(null)}>
              {t("map.position.unpin")}
            </Button>
          ) : null}
        </Stack>
      )}
    </Stack>
  );
}
