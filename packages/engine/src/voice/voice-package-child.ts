// The process voice-package-import.ts starts: unpacks and checks one package at a time.
import { childSide } from '../isolation/child-pool.js';
import { type UnpackJob, type UnpackReply, unpackVoicePackage } from './voice-package-unpack.js';

childSide<UnpackJob, UnpackReply>(unpackVoicePackage);
