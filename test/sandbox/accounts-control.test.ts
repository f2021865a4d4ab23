import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';

describe('sandbox control: POST /__sandbox/accounts', () => {
  let sandbox: SandboxServer;
  let token: string;

  beforeAll(async () => {
    sandbox = await startSandbox({
      accounts: [{ bankCode: '014', accountNumber: '0012345678', holderName: 'BUDI SANTOSO', status: 'SUCCESS' }],
    });
    const login = await fetch(`${sandbox.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'sandbox', password: 'sandbox' }),
    });
    token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  });
  afterAll(() => sandbox.close());

  const inquire = async (accountNumber: string) => {
    const reply = await fetch(`${sandbox.url}/api/transfer/inquiry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ bank_code: '014', account_number: accountNumber }),
    });
    return (await reply.json()) as { error: boolean; message: string; data: { account_holder?: string } | null };
  };
  const post = (body: unknown) =>
    fetch(`${sandbox.url}/__sandbox/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('renames, closes and opens accounts at runtime', async () => {
    expect((await inquire('0012345678')).data?.account_holder).toBe('BUDI SANTOSO');
    expect((await inquire('0099999999')).message).toBe('Account not found');
    const reply = await post({
      accounts: [
        { bank_code: '014', account_number: '0012345678', account_holder: 'AGUS WIJAYA' },
        { bank_code: '014', account_number: '0099999999', account_holder: 'RINA MARLINA', status: 'SUCCESS' },
      ],
    });
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ accounts: 2 });
    expect((await inquire('0012345678')).data?.account_holder).toBe('AGUS WIJAYA');
    expect((await inquire('0099999999')).data?.account_holder).toBe('RINA MARLINA');
    await post({ accounts: [{ bank_code: '014', account_number: '0012345678', account_holder: 'AGUS WIJAYA', behaviour: 'closed' }] });
    expect(await inquire('0012345678')).toMatchObject({ error: true, message: 'Account closed' });
  });

  it('refuses a body that is not a list of accounts, saying what is wrong, and changes nothing', async () => {
    for (const [body, message] of [
      [{}, /needs "accounts"/],
      [{ accounts: [{ bank_code: '014', account_number: '1' }] }, /accounts\[0\]: missing account_holder/],
      [{ accounts: [{ bank_code: '014', account_number: '1', account_holder: 'X', behaviour: 'vanish' }] }, /unknown behaviour "vanish"/],
      [{ accounts: ['014,1,X'] }, /each account must be an object/],
    ] as const) {
      const reply = await post(body);
      expect(reply.status).toBe(400);
      expect(((await reply.json()) as { message: string }).message).toMatch(message);
    }
    expect((await inquire('0099999999')).data?.account_holder).toBe('RINA MARLINA');
  });

  it('upsertAccounts does the same in process', async () => {
    sandbox.upsertAccounts([{ bankCode: '014', accountNumber: '0077777777', holderName: 'JOKO', status: 'SUCCESS' }]);
    expect((await inquire('0077777777')).data?.account_holder).toBe('JOKO');
  });
});
