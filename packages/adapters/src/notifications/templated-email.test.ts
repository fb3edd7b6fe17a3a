import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueOf, renderEmail, templateValues } from '@fundi/application/notifications';
import { unsubscribeHeaders } from '@fundi/domain/notifications';
import { startSmtpServer, type TestSmtpServer } from '../testing/smtp-test-server.js';
import { NodemailerMailer } from './nodemailer-mailer.js';

describe('a built-in template sent through SMTP', () => {
  let server: TestSmtpServer;
  let mailer: NodemailerMailer;
  beforeAll(async () => {
    server = await startSmtpServer();
    mailer = new NodemailerMailer({ url: server.url }, { ignoreTLS: true });
  });
  afterAll(async () => {
    mailer.close();
    await server.close();
  });

  it('arrives with the hostile name escaped in HTML and intact in text', async () => {
    const catalogue = catalogueOf({});
    const t = catalogue.template('welcome');
    const rendered = renderEmail(
      t.email!,
      templateValues({ ...t.sample, 'learner.firstName': '<script>alert(1)</script> Zoë' }, catalogue),
      catalogue,
    );
    const r = await mailer.send({
      from: 'Ubuntu Skills Academy <no-reply@fundi.example>',
      to: 'thandi@example.org',
      ...rendered,
      headers: unsubscribeHeaders('https://app.fundi.example/u/t1'),
    });
    expect(r.ok).toBe(true);
    const [got] = await server.received();
    expect(got!.subject).toBe('Welcome to Ubuntu Skills Academy');
    expect(got!.html).toContain('<p>Hi &lt;script&gt;alert(1)&lt;/script&gt; Zoë,</p>');
    expect(got!.html).not.toContain('<script>');
    expect(got!.text).toContain('Hi <script>alert(1)</script> Zoë,');
    expect(got!.text).toContain('Ubuntu Skills Academy has registered you as a learner.');
    expect(got!.headers.get('list-unsubscribe')).toBe('<https://app.fundi.example/u/t1>');
  });
});
