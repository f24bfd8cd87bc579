// Outgoing e-mail (invitations, password resets) through the SMTP server of TIDEMARK_SMTP_URL, with nodemailer.
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export function smtpMailer(settings: { url: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(settings.url);
  return {
    async send(mail) {
      await transport.sendMail({ from: settings.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
