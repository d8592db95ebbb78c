// Placeholder: the storefront issue builds the newsletter popup.
export function NewsletterPopup() {
  return null;
}
