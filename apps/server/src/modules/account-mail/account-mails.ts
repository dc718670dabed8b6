import { EMAIL_CODE_TTL_MINUTES } from "@cellfleet/contract";
import type { MailMessage } from "../../platform/mail/mailer";

// The texts of the mails about accounts (registration, sign-in rules), in Russian then English: the
// address's language is not known. Their own module, below both registration and auth, which send them.

/** The registration key for a new company. */
export function registrationKeyMail(to: string, key: string): MailMessage {
  return {
    to,
    subject: "Cellfleet: ключ регистрации / registration key",
    text: [
      `Ключ для регистрации в Cellfleet: ${key}`,
      `Он действует ${EMAIL_CODE_TTL_MINUTES} минут.`,
      "",
      `Your Cellfleet registration key: ${key}`,
      `It is valid for ${EMAIL_CODE_TTL_MINUTES} minutes.`,
    ].join("\n"),
  };
}

/** The new company's admin account. */
export function accountCreatedMail(
  to: string,
  username: string,
  password: string,
  publicUrl: string,
): MailMessage {
  return {
    to,
    subject: "Cellfleet: учётная запись создана / account created",
    text: [
      `Вход: ${publicUrl}/login`,
      `Имя пользователя: ${username}`,
      `Пароль: ${password}`,
      "При первом входе задайте свой пароль.",
      "",
      `Sign in at ${publicUrl}/login`,
      `Username: ${username}`,
      `Password: ${password}`,
      "You will choose your own password at the first sign-in.",
    ].join("\n"),
  };
}

/** A password-reset code and link. */
export function passwordResetMail(
  to: string,
  username: string,
  code: string,
  publicUrl: string,
): MailMessage {
  const link = `${publicUrl}/login?reset=${encodeURIComponent(code)}`;
  return {
    to,
    subject: "Cellfleet: сброс пароля / password reset",
    text: [
      `Для пользователя ${username} запрошен сброс пароля.`,
      `Код: ${code}`,
      `Ссылка: ${link}`,
      `Код действует ${EMAIL_CODE_TTL_MINUTES} минут. Если вы не запрашивали сброс, ничего не делайте.`,
      "",
      `A password reset was asked for the user ${username}.`,
      `Code: ${code}`,
      `Link: ${link}`,
      `The code is valid for ${EMAIL_CODE_TTL_MINUTES} minutes. If you did not ask for it, do nothing.`,
    ].join("\n"),
  };
}

/** A new password after the old one expired (policy strategy 'send_new_password'). */
export function newPasswordMail(
  to: string,
  username: string,
  password: string,
  publicUrl: string,
): MailMessage {
  return {
    to,
    subject: "Cellfleet: новый пароль / new password",
    text: [
      `Срок действия пароля пользователя ${username} истёк. Новый пароль: ${password}`,
      `Войдите (${publicUrl}/login) и задайте свой пароль.`,
      "",
      `The password of ${username} has expired. Your new password: ${password}`,
      `Sign in at ${publicUrl}/login and choose your own.`,
    ].join("\n"),
  };
}

/** An administrator removed the person's second factor (ADR 039). */
export function secondFactorResetMail(to: string, username: string, publicUrl: string): MailMessage {
  return {
    to,
    subject: "Cellfleet: второй фактор сброшен / second factor reset",
    text: [
      `Администратор удалил приложение-аутентификатор, ключи доступа и коды восстановления пользователя ${username}.`,
      `При следующем входе (${publicUrl}/login) хватит пароля; подключите второй фактор снова в профиле.`,
      "Если вы об этом не просили, сообщите администратору.",
      "",
      `An administrator removed the authenticator app, passkeys and recovery codes of ${username}.`,
      `Your next sign-in (${publicUrl}/login) takes only the password; enrol a second factor again on your profile.`,
      "If you did not ask for this, tell your administrator.",
    ].join("\n"),
  };
}
