// The Voice engine arrives with its own issue; until then it exports only its version.
export const ENGINE_VERSION = '0.1.0';
