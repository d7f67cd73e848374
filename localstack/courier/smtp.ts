import nodemailer from 'nodemailer';

/** One email as the courier sends it. */
export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string | null;
  date: Date;
  headers: Record<string, string>;
}

/** An SMTP server to send to, at an address already resolved (the name is kept for TLS). */
export interface SmtpConnection {
  address: string;
  port: number;
  serverName: string;
  implicitTls: boolean;
  startTls: boolean;
  skipVerify: boolean;
  user: string;
  password: string;
  from: { address: string; name: string };
  localName: string;
}

/**
 * Sends one email over SMTP with nodemailer: connects to `address` (never resolving a name again), presents
 * and verifies the certificate for `serverName`, STARTTLS required or off as configured, AUTH when a user is
 * given. Resolves once the server accepted the message; rejects with nodemailer's error otherwise.
 */
export async function sendSmtp(conn: SmtpConnection, mail: OutgoingEmail, timeoutMs: number): Promise<void> {
  const transport = nodemailer.createTransport({
    host: conn.address,
    port: conn.port,
    secure: conn.implicitTls,
    requireTLS: conn.startTls,
    ignoreTLS: !conn.implicitTls && !conn.startTls,
    tls: { servername: conn.serverName, rejectUnauthorized: !conn.skipVerify, minVersion: 'TLSv1.2' },
    ...(conn.user ? { auth: { user: conn.user, pass: conn.password } } : {}),
    name: conn.localName,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  try {
    await transport.sendMail({
      from: conn.from.name ? { name: conn.from.name, address: conn.from.address } : conn.from.address,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html ? { html: mail.html } : {}),
      date: mail.date,
      headers: mail.headers,
    });
  } finally {
    transport.close();
  }
}
