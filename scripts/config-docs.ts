/**
 * `npm run config:docs`: writes what is derived from the settings' declarations (src/config/settings.ts):
 * the tables of docs/configuration.md, .env.example and redis.env.example. test/unit/config-schema.test.ts
 * fails while any of them differs from what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { appEnvExample, redisEnvExample, withSettingsTables } from '../src/config/settings-docs.js';

const page = 'docs/configuration.md';
writeFileSync(page, withSettingsTables(readFileSync(page, 'utf8')));
writeFileSync('.env.example', appEnvExample());
writeFileSync('redis.env.example', redisEnvExample());
console.log(`wrote ${page}, .env.example, redis.env.example`);
