// Placeholder: the checkout issue builds the cart sidebar.
export function CartSidebar() {
  return null;
}
