// Writes python/ownvoice_trainer/voice_presets.json from VOICE_PRESETS (see voice-presets-file.ts).
import { VOICE_PRESETS_FILE, writeVoicePresetsFile } from '../src/voice/voice-presets-file.js';

writeVoicePresetsFile();
console.log(`wrote ${VOICE_PRESETS_FILE}`);
