import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('verifies the right password and only it; each hash has its own salt', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', hash)).toBe(false);
    expect(await hashPassword('correct horse battery staple')).not.toBe(hash);
  });

  it('treats a composed and a decomposed accent as the same password', async () => {
    const hash = await hashPassword('caf\u00e9 au lait');
    expect(await verifyPassword('cafe\u0301 au lait', hash)).toBe(true);
  });

  it.each(['', 'bcrypt$x', 'scrypt$1$2$3', 'scrypt$32768$8$1$salt$'])('refuses a malformed hash %j', async (stored) => {
    expect(await verifyPassword('x', stored)).toBe(false);
  });
});
