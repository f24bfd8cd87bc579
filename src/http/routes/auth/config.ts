// GET /auth/config: what the web app's sign-in page offers (sign-up, e-mail confirmation, the sandbox).
import type { App, HttpDeps } from '../../context.js';
import { hide } from './session.js';

export default function authConfig(app: App, deps: HttpDeps) {
  app.get('/auth/config', { schema: hide, config: { auth: 'none' } }, async () => ({
    signup_enabled: deps.users.signupEnabled,
    email_verification: deps.users.verifiesEmail,
    sandbox: deps.sandbox !== null,
  }));
}
