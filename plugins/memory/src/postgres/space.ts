/** A memory space's name (a profile name, a ward, a site). */
export const SPACE_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,63}$/;
