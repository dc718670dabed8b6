import { DELETE_CONFIRM_MS } from "@cellfleet/contract";
import DeleteIcon from "@mui/icons-material/Delete";
import DeleteForeverIcon from "@mui/icons-material/DeleteForever";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

interface DeleteButtonProps {
  onDelete: () => void;
  /** The button's accessible name (and its text when `label` is shown). */
  label?: string;
  /** A text button instead of an icon. */
  hasText?: boolean;
  disabled?: boolean;
}

/**
 * Two-step delete (spec section 4): the first click arms the button for 2 seconds with the tooltip
 * 'Tap again'; a second click within that window deletes; otherwise it disarms by itself.
 */
export function DeleteButton({ onDelete, label, hasText = false, disabled = false }: DeleteButtonProps) {
  const { t } = useTranslation();
  const [isArmed, setArmed] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const name = label ?? t("fleet.common.delete");

  useEffect(() => () => clearTimeout(timer.current), []);

  function handleClick() {
    clearTimeout(timer.current);
    if (isArmed) {
      setArmed(false);
      onDelete();
      return;
    }
    setArmed(true);
    timer.current = setTimeout(() => setArmed(false), DELETE_CONFIRM_MS);
  }

  const tooltip = isArmed ? t("fleet.common.tapAgain") : name;
  return (
    <Tooltip title={tooltip} open={isArmed ? true : undefined}>
      <span>
        {hasText ? (
          <Button
            color="error"
            variant={isArmed ? "contained" : "outlined"}
            startIcon={isArmed ? <DeleteForeverIcon /> : <DeleteIcon />}
            onClick={handleClick}
            disabled={disabled}
            data-armed={isArmed}
          >
            {isArmed ? t("fleet.common.tapAgain") : name}
          </Button>
        ) : (
          <IconButton
            aria-label={isArmed ? t("fleet.common.tapAgain") : name}
            color={isArmed ? "error" : "default"}
            onClick={handleClick}
            disabled={disabled}
            data-armed={isArmed}
          >
            {isArmed ? <DeleteForeverIcon /> : <DeleteIcon />}
          </IconButton>
        )}
      </span>
    </Tooltip>
  );
}
