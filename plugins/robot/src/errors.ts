/** Error codes of `@mira/robot`: the hardware layer shared by every robot transport. */
export const HardwareErrorCodes = {
  TRANSPORT_UNAVAILABLE: 'MIRA_ERR_HARDWARE_TRANSPORT_UNAVAILABLE',
  TRANSPORT_FAILED: 'MIRA_ERR_HARDWARE_TRANSPORT_FAILED',
  SERVICE_TIMEOUT: 'MIRA_ERR_HARDWARE_SERVICE_TIMEOUT',
  UNSUPPORTED_MESSAGE: 'MIRA_ERR_HARDWARE_UNSUPPORTED_MESSAGE',
} as const;

/** Every error code of `@mira/robot`. */
export type HardwareErrorCode = (typeof HardwareErrorCodes)[keyof typeof HardwareErrorCodes];
