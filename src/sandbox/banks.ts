import type { SandboxBank } from './types.js';

// Real Indonesian clearing codes, so fixtures and demo files look like production input.
export const DEFAULT_BANKS: readonly SandboxBank[] = [
  { bankCode: '002', name: 'BRI', fee: '6500' },
  { bankCode: '008', name: 'MANDIRI', fee: '6500' },
  { bankCode: '009', name: 'BNI', fee: '6500' },
  { bankCode: '011', name: 'DANAMON', fee: '6500' },
  { bankCode: '013', name: 'PERMATA', fee: '6500' },
  { bankCode: '014', name: 'BCA', fee: '6500' },
  { bankCode: '016', name: 'MAYBANK INDONESIA', fee: '6500' },
  { bankCode: '022', name: 'CIMB NIAGA', fee: '6500' },
  { bankCode: '028', name: 'OCBC NISP', fee: '6500' },
  { bankCode: '147', name: 'MUAMALAT', fee: '6500' },
  { bankCode: '200', name: 'BTN', fee: '6500' },
  { bankCode: '451', name: 'BSI (BANK SYARIAH INDONESIA)', fee: '6500' },
  { bankCode: '535', name: 'SEABANK', fee: '2500' },
  { bankCode: '542', name: 'BANK JAGO', fee: '2500' },
];
