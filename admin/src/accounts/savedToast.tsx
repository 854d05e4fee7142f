import { Toast } from '../layout/Toast';

/** Spec 4: an account save shows a success message titled "saved". */
export const savedToast = (name: string) => <Toast severity="success" title="message_saved" description="message_saved_description" args={{ name }} />;
