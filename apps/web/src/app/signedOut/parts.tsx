import { type ChangeEvent, type ReactNode, useId, useState } from "react";
import { Icon, Spinner } from "./icons";

export type Severity = "error" | "warning" | "info" | "success";

interface AlertProps {
  severity: Severity;
  children: ReactNode;
  filled?: boolean;
  action?: ReactNode;
  testId?: string;
}

/** MUI's Alert (standard or filled) in plain markup: role="alert", the severity's icon. */
export function Alert({ severity, children, filled = false, action, testId }: AlertProps) {
  return (
    <div
      role="alert"
      data-testid={testId}
      className={`so-alert so-alert--${severity}${filled ? " so-alert--filled" : ""}`}
    >
      <div className="so-alert-icon">
        <Icon name={severity} />
      </div>
      <div className="so-alert-message">{children}</div>
      {action ? <div className="so-alert-action">{action}</div> : null}
    </div>
  );
}

interface ButtonProps {
  children: ReactNode;
  variant: "contained" | "outlined" | "text";
  large?: boolean;
  type?: "button" | "submit";
  isLoading?: boolean;
  onClick?: () => void;
}

/** MUI's Button (contained, outlined or text); `isLoading` disables it and shows a spinner. */
export function Button({ children, variant, large, type = "button", isLoading, onClick }: ButtonProps) {
  const className = `so-button so-button--${variant}${large ? " so-button--large" : ""}${
    isLoading ? " so-button--loading" : ""
  }`;
  return (
    <button type={type} className={className} disabled={isLoading} onClick={onClick}>
      {children}
      {isLoading ? (
        <span className="so-button-spinner">
          <Spinner size={16} />
        </span>
      ) : null}
    </button>
  );
}

interface FieldProps {
  name: string;
  label: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  type?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  error?: string;
  endAdornment?: ReactNode;
}

/**
 * MUI's outlined text field in plain markup (floating label, notched outline, helper text): the
 * label floats while the field is focused or filled, or when the browser autofills it.
 */
export function Field({ name, label, error, endAdornment, value, ...input }: FieldProps) {
  const id = useId();
  const helperId = `${id}-helper-text`;
  const [isFocused, setFocused] = useState(false);
  const [isAutofilled, setAutofilled] = useState(false);
  const isShrunk = isFocused || value !== "" || isAutofilled;
  const className = [
    "so-field",
    isShrunk ? "so-field--shrink" : "",
    isFocused ? "so-field--focused" : "",
    error ? "so-field--error" : "",
  ].join(" ");
  return (
    <div className={className}>
      <label htmlFor={id} className="so-label" data-shrink={isShrunk}>
        {label}
      </label>
      <div className={endAdornment ? "so-input-box so-input-box--end" : "so-input-box"}>
        <input
          id={id}
          name={name}
          className="so-input"
          value={value}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? helperId : undefined}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          onAnimationStart={(event) => setAutofilled(event.animationName === "so-auto-fill")}
          {...input}
        />
        {endAdornment ? <div className="so-adornment">{endAdornment}</div> : null}
        <fieldset aria-hidden="true" className="so-outline">
          <legend>
            <span>{label}</span>
          </legend>
        </fieldset>
      </div>
      {error ? (
        <p id={helperId} className="so-helper">
          {error}
        </p>
      ) : null}
    </div>
  );
}
