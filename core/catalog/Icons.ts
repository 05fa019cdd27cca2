/** Where the host serves the icon of a rail; catalog entries and payments point there. */
export const iconPath = (methodId: string) => `/icons/payment-methods/${encodeURIComponent(methodId)}.svg`
export const iconUrl = (publicUrl: string, methodId: string) => publicUrl + iconPath(methodId)
