/**
 * Where the verification page sends a user who signed up from the capture app ('/app'), kept in this browser's
 * localStorage by the sign-up page (the mailed link has no room for it: its address is the contract's).
 */
export const AFTER_VERIFY_KEY = 'ls.after_verify';
