// A process that takes a data folder and keeps it until killed: `node --import tsx
// src/test/hold-data-folder.ts <folder>`. Tests use it as "another OwnVoice process".
import { lockDataFolder } from '../data-folder.js';

const folder = process.argv[2];
if (!folder) throw new Error('usage: hold-data-folder.ts <folder>');
lockDataFolder(folder, 'a test holder');
console.log('locked');
setInterval(() => {}, 60_000);
