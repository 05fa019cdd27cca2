/** The Spanish catalog: the same keys as the English one (`en.ts`), which the compiler checks. */
import type { Catalog } from "./en.ts"

const pages: Catalog["pages"] = {
  channel: { ONLINE: "Transferencia y pago inmediato", CASH: "Efectivo", CREDIT_CARD: "Tarjeta" },
  kinds: { bank_transfer: "transferencia bancaria", online_debit: "débito en línea", cash: "pago en efectivo", card: "tarjeta", wallet: "billetera digital" },
  title: "Pago",
  heading: "Completa tu pago",
  payWith: "Pagar con",
  moreMethods: (count) => `Mostrar ${count} más`,
  yourDetails: "Tus datos",
  fullName: "Nombre completo",
  email: "Correo electrónico",
  documentId: "Número de documento de identidad",
  documentHint: "CURP, RUT, DNI... según lo pida el medio de pago",
  phone: "Teléfono (con código de país)",
  phoneHint: "El medio de pago elegido lo pide",
  installments: "Cuotas",
  payOnce: (total) => `En un pago, ${total}`,
  payInInstalments: (count, each, first) => first === each ? `${count} cuotas de ${each} sin interés` : `${count} cuotas de ${each} (la primera ${first}) sin interés`,
  installmentsHint: "Para pagos con tarjeta",
  address: "Tu dirección",
  street: "Calle",
  number: "Número",
  numberHint: "S/N si la dirección no tiene",
  complement: "Depto., piso, interior (opcional)",
  district: "Colonia o barrio",
  city: "Ciudad",
  state: "Estado o provincia",
  postalCode: "Código postal",
  submit: "Continuar al pago",
  cancel: "Cancelar y volver a la tienda",
  noMethodHeading: "No hay medios de pago disponibles",
  noMethodBody: "Esta tienda no puede recibir pagos aquí ahora. Vuelve a la tienda.",
  expiredTitle: "Enlace de pago vencido",
  expiredHeading: "Este enlace de pago venció",
  expiredBody: "Los enlaces de pago valen 24 horas. Vuelve a la tienda y comienza el pago de nuevo.",
  usedTitle: "Pago ya iniciado",
  usedHeading: "Este pago ya se inició",
  usedBody: "Ya se eligió un medio de pago para este pago.",
  usedContinue: "Continuar al pago",
  backToShop: "Volver a la tienda",
  sandbox: {
    notice: "Proveedor de pruebas (sandbox) — no se mueve dinero real",
    paymentIs: (id, status) => `El pago ${id} está ${status}.`,
    status: { pending: "pendiente", completed: "completado", failed: "rechazado", refunded: "reembolsado", expired: "vencido", chargeback: "contracargado", authorized: "autorizado", voided: "anulado" },
    pay: "Pagar",
    fail: "Hacer fallar el pago",
    notFoundTitle: "Pago no encontrado",
    notFoundBody: "Este pago de prueba no existe.",
    badRequest: "Elige Pagar o Hacer fallar el pago.",
    challengeTitle: "Autenticación 3-D Secure",
    challengeBody: "Tu banco te pide confirmar este pago con tarjeta. En el sandbox, elige cómo termina la autenticación.",
    authenticate: "Completar la autenticación",
    failAuthentication: "Hacer fallar la autenticación"
  },
  threeDSecure: {
    title: "Autenticación terminada",
    body: "Tu banco respondió. La tienda confirmará tu pago; puedes cerrar esta página.",
    notFoundTitle: "Pago no encontrado"
  },
  script: {
    name: "Ingresa tu nombre y apellido.",
    email: "Ingresa un correo válido, como nombre@ejemplo.com.",
    document: "Ingresa tu número de documento.",
    documentInvalid: "Este número de documento no es válido para el país del medio de pago: revisa sus dígitos.",
    phone: "Ingresa tu teléfono con el código de país, como +5215512345678.",
    street: "Ingresa la calle.",
    number: "Ingresa el número de la dirección, o S/N.",
    district: "Ingresa la colonia o el barrio.",
    city: "Ingresa la ciudad.",
    state: "Ingresa el estado o la provincia.",
    stateCode: "Ingresa la sigla del estado, como SP.",
    postalCode: "Ingresa un código postal válido.",
    address: "El medio de pago elegido pide tu dirección.",
    method: "Elige un medio de pago.",
    check: "Revisa este campo.",
    failed: "No se pudo iniciar el pago. Inténtalo de nuevo.",
    offline: "La conexión falló. Inténtalo de nuevo."
  }
}

const consoleWords: Catalog["console"] = {
  shell: {
    layout: {
      console: "Consola", sandbox: "Sandbox", production: "Producción", sandboxNote: "Sandbox: datos de prueba, sin dinero real",
      productionNote: "Producción: dinero real", switchTo: "Cambiar a", signOut: "Cerrar sesión", operator: "Operador",
      skip: "Ir al contenido", language: "Idioma", apply: "Aplicar", navigation: "Secciones",
      payments: "Pagos", balances: "Saldos", payouts: "Dispersiones", settlements: "Liquidaciones", webhooks: "Webhooks",
      developers: "Desarrolladores", team: "Equipo", merchants: "Comercios", connectors: "Conectores", routing: "Enrutamiento", queues: "Colas",
      fxRates: "Tipos de cambio", reconciliation: "Conciliación"
    },
    page: {
      forbidden: "Este formulario no vino de la consola", forbiddenBody: "No se hizo nada. Abra la página otra vez y repita la acción.",
      notFound: "No existe la página", notFoundBody: "Esta página no existe para este acceso."
    },
    invitation: {
      title: "Unirse al equipo", intro: "Elija una contraseña (12 caracteres o más) para", password: "Contraseña", next: "Continuar",
      enrolTitle: "Configure su aplicación autenticadora", enrolIntro: "Agregue este secreto a una aplicación autenticadora (cualquier app TOTP: escríbalo a mano) y escriba el código de seis dígitos que muestra.",
      secret: "Secreto", uri: "O abra este enlace en el teléfono", code: "Código", confirm: "Confirmar", doneTitle: "Ya está en el equipo",
      done: "Inicie sesión con su correo, su contraseña y un código de su aplicación.", invalid: "Este enlace de invitación no es válido o venció: pida uno nuevo.",
      signIn: "Iniciar sesión"
    },
    signIn: {
      title: "Iniciar sesión", merchant: "Comercio",
      sso: "Iniciar sesión con su organización", ssoHint: "Si su empresa le hace iniciar sesión con su proveedor de identidad.", ssoTitle: "Continuar en su organización", ssoContinue: "Continuar al inicio de sesión de su organización", rejectedSso: "El inicio de sesión único no le hizo entrar",
      member: "Miembro del equipo", memberHint: "Su correo, su contraseña y el código de seis dígitos de su aplicación autenticadora.", email: "Correo", password: "Contraseña",
      code: "Código", environment: "Ambiente", rejectedMember: "El correo, la contraseña o el código no fueron aceptados", merchantHint: "Use un par de llaves del ambiente que quiere ver: pk_test_/sk_test_ para sandbox, pk_live_/sk_live_ para producción. Las llaves se cambian por una sesión y no se guardan.",
      publishableKey: "Llave publicable", secretKey: "Llave secreta", signIn: "Iniciar sesión", operator: "Operador", adminToken: "Token de administración",
      operatorHint: "El ADMIN_TOKEN del servidor.", rejected: "Estas llaves no fueron aceptadas", rejectedAdmin: "Este token de administración no fue aceptado",
      switching: "Inicie sesión con un par de llaves del ambiente al que cambia.", sandbox: "sandbox", production: "producción",
      foreign: "Este formulario no vino de la consola; no se hizo nada.",
      needsHttps: "La consola necesita HTTPS (PUBLIC_URL https://…) o una dirección local: los navegadores solo guardan así la cookie segura de la sesión."
    }
  },
  merchant: {
    balances: {
      title: "Saldos", payin: "Saldo de cobros", payout: "Saldo de dispersiones", currency: "Moneda", available: "Disponible", pending: "Pendiente",
      frozen: "Congelado", reserve: "Reserva", owed: "Adeudado", reserved: "Reservado", localNote: "Las monedas locales muestran congelado y reserva juntos, en Reserva.",
      transferable: "Transferible desde cobros", chart: "Saldo disponible, últimos 30 días", day: "Día", movements: "Movimientos recientes",
      when: "Cuándo", type: "Tipo", reference: "Referencia", amount: "Monto", books: "Cuentas", noMovements: "Aún no hay movimientos.",
      noPayout: "Aún no hay saldo de dispersiones.", swap: "Cambiar una moneda local a USD", swapped: "Cambio hecho: los USD están en su saldo disponible.",
      warnings: "Avisos", net: "Saldo neto", unavailable: "No se pudo leer el saldo.", fund: "Fondear el saldo de dispersiones",
      movement: "Movimiento", availableChange: "Disponible", elsewhere: "Pendiente, congelado, reserva"
    },
    balanceKinds: {
      "payment.completed": "Pago recibido", "payment.settled": "Pago liquidado", "payment.failed": "Pago fallido",
      "reserve.released": "Reserva liberada", "claim.opened": "Reembolso solicitado", "claim.resolved": "Reembolso completado",
      "claim.rejected": "Reembolso rechazado", "refund.completed": "Reembolso completado", "refund.failed": "Reembolso fallido",
      "chargeback.opened": "Contracargo abierto", "chargeback.won": "Contracargo ganado", "chargeback.lost": "Contracargo perdido",
      "balance.swap": "Cambio de moneda", "balance.fund_sandbox": "Fondos de sandbox", "withdrawal.requested": "Retiro solicitado",
      "withdrawal.completed": "Retiro completado", "withdrawal.failed": "Retiro fallido (devuelto)", "payout.transfer": "Transferencia al saldo de dispersiones",
      "settlement.closed": "Lote de liquidación cerrado", "settlement.failed": "Pago de la liquidación fallido (devuelto)", "deposit.credited": "Depósito acreditado"
    },
    deliveries: {
      delivery: "Entrega", event: "Evento", status: "Estado", attempts: "Intentos", created: "Creada", next: "Próximo intento", succeeded: "Entregada",
      request: "Solicitud", response: "Respuesta", url: "URL", headers: "Encabezados", header: "Encabezado", value: "Valor", body: "Cuerpo",
      statusCode: "Código de estado", error: "Error", excerpt: "Cuerpo (primeros 1024 caracteres)", noAnswer: "Aún no se intentó.", empty: "(vacío)",
      replay: "Reenviar", replayHint: "Encola esta entrega otra vez ahora, con el mismo cuerpo. Un reenvío por clic.", replayButton: "Reenviar esta entrega",
      replayed: "La entrega se encoló otra vez; actualice para ver su nuevo resultado.", back: "Volver al endpoint", payment: "Pago"
    },
    auditLog: {
      title: "Registro de auditoría", hint: "Quién cambió qué en esta cuenta, en este ambiente, del más nuevo al más antiguo: llaves, llaves restringidas, webhooks, cuentas de conector, el equipo y los cambios del operador. Cada registro se encadena al anterior por su hash.",
      when: "Cuándo", who: "Quién", operation: "Operación", object: "Objeto", changes: "Cambios", show: "Mostrar", none: "Todavía no hay cambios registrados.",
      newer: "Más nuevos", older: "Más antiguos", page: "Páginas", back: "Desarrolladores", link: "Leer el registro de auditoría"
    },
    developerEvents: {
      title: "Eventos", type: "Tipo", any: "Todos los tipos", filter: "Filtrar", id: "Evento", created: "Creado", related: "Sobre", json: "JSON",
      show: "Mostrar", none: "Ningún evento coincide.", newer: "Más nuevos", older: "Más antiguos", page: "Páginas", back: "Desarrolladores"
    },
    developers: {
      title: "Desarrolladores", keys: "Llaves de API", publishable: "Llave publicable", secret: "Llave secreta", version: "Versión", created: "Emitida",
      rotate: "Rotar las llaves", rotateHint: "Revoca el par de llaves de este ambiente y todo token emitido con él, y emite un par nuevo. Toda integración con las llaves anteriores deja de funcionar al instante, y tendrá que iniciar sesión otra vez con las nuevas.",
      rotateButton: "Rotar las llaves de este ambiente", rotatedTitle: "Llaves rotadas", newKeys: "Sus llaves nuevas",
      rotatedOnce: "Copie la llave secreta ahora: se muestra una sola vez. Las llaves anteriores ya no funcionan y esta sesión de la consola terminó.",
      signInAgain: "Iniciar sesión con las llaves nuevas", requests: "Solicitudes recientes", method: "Método", path: "Ruta", statusCode: "Estado", requestId: "Id de solicitud",
      time: "Hora", duration: "ms", noRequests: "Aún no hay solicitudes a la API.", requestsHint: "Las últimas 100 solicitudes a la API de esta tienda en este ambiente.",
      events: "Eventos", eventsLink: "Ver los eventos", auditLink: "Leer el registro de auditoría", clock: "Reloj de prueba del sandbox", now: "Hora de la tienda ahora", offset: "Adelantado respecto del tiempo real",
      advance: "Avanzar", seconds: "Cuánto", advanceButton: "Avanzar el reloj", advanced: "El reloj del sandbox avanzó; se ejecutó todo lo vencido.",
      hour: "1 hora", day: "1 día", week: "7 días", month: "30 días", clockHint: "Avanza la hora del sandbox de esta tienda y ejecuta lo vencido (vencimientos, liquidación, reintentos). El tiempo nunca retrocede.",
      revoked: "La clave restringida fue revocada: ya no funciona."
    },
    team: {
      title: "Equipo", hint: "Personas que entran como ellas mismas, cada una con un rol. Quitar a alguien o cambiar su rol termina sus sesiones al instante.",
      members: "Miembros", email: "Correo", name: "Nombre", role: "Rol", status: "Estado", actions: "Acciones", save: "Guardar rol", remove: "Quitar",
      none: "Todavía no hay miembros.", invite: "Invitar a alguien", invited: "invitado", active: "activo", sent: "Invitación enviada a",
      linkTitle: "Enlace de invitación", linkOnce: "Este servidor no envía correos: entregue este enlace a la persona usted mismo. Se muestra una sola vez y vale 72 horas.",
      back: "Volver al equipo", saved: "Rol guardado.", removedDone: "Miembro quitado."
    },
    restrictedKeys: {
      title: "Claves restringidas", active: "Claves restringidas activas", hint: "Claves secretas que llaman solo a las operaciones que sus permisos cubren (lectura, o escritura, que incluye lectura). No administran claves.",
      name: "Nombre", permissions: "Permisos", secret: "Clave secreta", created: "Creada", actions: "Acciones", revoke: "Revocar", none: "No hay claves restringidas.",
      noAccess: "Ninguno", read: "Lectura", write: "Escritura", create: "Crear una clave restringida", createdTitle: "Clave restringida creada",
      once: "Copia la clave secreta ahora: se muestra una sola vez.", back: "Volver a Desarrolladores"
    },
    paymentDetail: {
      card: "Tarjeta", cardBrand: "Marca", cardNumber: "Número (BIN y últimos 4)", cardExpiry: "Vencimiento", cardFingerprint: "Huella", cardInstallments: "Cuotas", firstInstalment: "primera",
      payment: "Pago", back: "Todos los pagos", summary: "Resumen", status: "Estado", amountUsd: "Monto (USD)", amountLocal: "Comprador pagó",
      method: "Método", country: "País", order: "Orden", fees: "Comisiones (USD)", refundable: "Reembolsable", created: "Creado",
      updated: "Actualizado", completed: "Completado", expires: "Vence", failure: "Motivo del fallo", provider: "Proveedor",
      timeline: "Ciclo de vida", attempt: "Intento con proveedor", latency: "latencia", rule: "regla", strategy: "estrategia", circuit: "circuito",
      score: "puntaje", noRule: "orden por defecto", decline: "rechazo de la tarjeta", event: "Evento", delivery: "Entrega de webhook", attempts: "intentos", answered: "respondió",
      ledgerEntry: "Asiento contable", claim: "Reclamo", refund: "Reembolso", claims: "Reembolsos y reclamos", noClaims: "Sin reembolsos ni reclamos.",
      ledger: "Asientos contables", noLedger: "Aún no hay asientos.", kind: "Tipo", amount: "Monto", reason: "Motivo", when: "Cuándo",
      entry: "Asiento", type: "Tipo", reference: "Referencia", postings: "Partidas", notFound: "No existe el pago",
      refunded: "Reembolso solicitado. Queda pendiente hasta que el proveedor lo confirme.", refundSucceeded: "Reembolso completado: el proveedor lo confirmó.",
      refundFailed: "El reembolso falló: el proveedor no lo hizo y no se descontó nada.", buyer: "Comprador", buyerEmail: "Correo del comprador", noDeliveries: "sin entregas de webhook", tried: "intentó"
    },
    payments: {
      title: "Pagos", id: "Pago", status: "Estado", amount: "Monto", local: "Comprador pagó", method: "Método", created: "Creado",
      order: "Orden", buyer: "Comprador", search: "ID de transacción o correo del comprador", none: "Ningún pago coincide.", filters: "Filtros", any: "Cualquiera", country: "País (código ISO)",
      from: "Creado desde", to: "Creado hasta", amountMin: "Monto desde (USD)", amountMax: "Monto hasta (USD)", apply: "Aplicar filtros",
      clear: "Limpiar", next: "Página siguiente", first: "Primera página", paging: "Páginas", total: "pagos coinciden",
      pending: "Pendiente", completed: "Completado", failed: "Fallido", refunded: "Reembolsado", expired: "Expirado", chargeback: "Contracargo", authorized: "Autorizado", voided: "Anulado"
    },
    payoutFunding: {
      title: "Fondear el saldo de dispersiones", transfer: "Transferir USD desde el saldo de cobros", transferable: "Transferible ahora", amountUsd: "Monto (USD)",
      doTransfer: "Transferir", swap: "Cambiar USD de dispersiones a una moneda local", to: "Moneda destino", quote: "Cotizar", doSwap: "Cambiar ahora",
      rate: "Tipo (unidades por USD)", receive: "Recibe aproximadamente", indicative: "Cotización indicativa: el tipo se lee de nuevo al ejecutar el cambio.",
      transferred: "Transferencia hecha: los USD están en su saldo de dispersiones.", swapped: "Cambio hecho: el dinero está en su saldo de dispersiones.",
      back: "Volver a saldos", payoutUsd: "USD disponible para dispersiones", quoteHeading: "Cotización"
    },
    payoutSend: {
      title: "Enviar una dispersión", chooseMethod: "Método de dispersión", choose: "Continuar", amount: "Monto", recipient: "Beneficiario", send: "Enviar dispersión",
      available: "Disponible", limits: "Límites (USD)", currency: "Moneda", noMethods: "No hay métodos de dispersión disponibles.", optional: "opcional",
      notRoutable: "No disponible aquí", fundFirst: "Primero fondee el saldo de dispersiones en esta moneda.", change: "Elegir otro método"
    },
    payouts: {
      title: "Dispersiones", send: "Enviar una dispersión", id: "Dispersión", status: "Estado", amount: "Monto", method: "Método", created: "Creada",
      completed: "Completada", none: "Aún no hay dispersiones.", provider: "Proveedor", providerRef: "Referencia del proveedor", failure: "Motivo del fallo",
      environment: "Ambiente", sent: "Dispersión creada.", previous: "Anterior", next: "Siguiente", back: "Volver a dispersiones", page: "Página", all: "Todas", filter: "Filtrar",
      simulate: "Simular el resultado", simulateHint: "Solo en sandbox: las dispersiones de sandbox esperan esta señal, como la respuesta de un proveedor en producción.", outcome: "Resultado",
      apply: "Simular", simulated: "Resultado simulado."
    },
    refundForm: {
      refund: "Reembolso", amount: "Monto", remaining: "Reembolsable ahora", reason: "Motivo (opcional)", none: "Sin motivo",
      requested_by_customer: "Solicitado por el cliente", duplicate: "Duplicado", fraudulent: "Fraudulento", other: "Otro",
      submit: "Reembolsar", notRefundable: "Solo un pago completado con monto restante puede reembolsarse."
    },
    settlements: {
      title: "Liquidaciones", batch: "Lote", status: "Estado", period: "Periodo", net: "Neto", gross: "Bruto", closed: "Cerrado", lines: "Líneas",
      none: "No hay lotes de liquidación: esta tienda no tiene calendario de liquidación, o ninguno ha cerrado aún.", platformFees: "Comisiones de la plataforma", providerFees: "Comisiones del proveedor", chargebackFees: "Comisiones por contracargo", refunds: "Reembolsos",
      chargebacks: "Contracargos", owedRecovered: "Deuda recuperada", reserveHeld: "Reserva retenida", reserveReleased: "Reserva liberada", other: "Otros",
      destination: "Destino", payoutRef: "Referencia del pago", txHash: "Hash de la transacción", failure: "Motivo del fallo", paidAt: "Pagado",
      pdf: "Estado de cuenta (PDF)", csv: "Estado de cuenta (CSV)", openNote: "Este lote está abierto: sus líneas y estado de cuenta existen desde su cierre.",
      at: "Cuándo", kind: "Tipo", transaction: "Transacción", order: "Orden", method: "Método", local: "Monto local", usd: "Neto (USD)", fees: "Comisiones", reserve: "Reserva",
      back: "Volver a liquidaciones", noLines: "Sin líneas.", downloads: "Estado de cuenta", previous: "Anterior", next: "Siguiente", page: "Página"
    },
    swaps: {
      title: "Cambiar a USD", from: "Moneda de origen", amount: "Monto", amountHint: "En la moneda de origen.", quote: "Cotizar", swap: "Cambiar ahora",
      rate: "Tipo (USD por unidad)", receive: "Recibe aproximadamente", availableNow: "Disponible ahora", indicative: "Cotización indicativa: el tipo se lee de nuevo al ejecutar el cambio.",
      nothing: "No hay moneda local en su saldo de cobros para cambiar.", back: "Volver a saldos", quoteHeading: "Cotización"
    },
    webhookEndpoint: {
      endpoint: "Endpoint", settings: "Configuración", save: "Guardar", state: "Estado", on: "Activo: recibe eventos", off: "Apagado: no recibe nada",
      danger: "Eliminar", deleteHint: "Eliminarlo descarta sus entregas pendientes.", deleteButton: "Eliminar este endpoint",
      secret: "Secreto de firma", rotateHint: "Un secreto nuevo; durante 24 horas las entregas también se firman (v0) con el anterior.", rotate: "Rotar el secreto",
      test: "Prueba", testHint: "Encola una entrega webhook.test solo a este endpoint. No se mueve dinero.", sendTest: "Enviar un evento de prueba",
      deliveries: "Entregas", delivery: "Entrega", event: "Evento", status: "Estado", attempts: "Intentos", answer: "Última respuesta", created: "Creada",
      none: "Aún no hay entregas.", saved: "Configuración guardada.", tested: "Se encoló un evento de prueba; aparece abajo cuando se envía.",
      rotated: "El secreto fue rotado.", disabledReason: "Apagado por el motor", managed: "Buzón administrado", newer: "Más nuevas", older: "Más antiguas", page: "Páginas"
    },
    webhooks: {
      title: "Webhooks", endpoints: "Endpoints", url: "URL del endpoint", events: "Eventos", state: "Estado", created: "Creado", description: "Descripción",
      none: "Aún no hay endpoints.", add: "Agregar un endpoint", create: "Agregar endpoint", urlHint: "Adonde se envían los eventos (POST): una URL https (http en sandbox).",
      eventsHint: "Tipos de evento separados por comas, o * para todos.", active: "activo", disabled: "desactivado",
      secretTitle: "Nuevo secreto de firma", secretOnce: "Copie este secreto ahora: se muestra una sola vez. Verifica el encabezado X-Service-Signature de cada entrega.",
      created1: "Endpoint agregado.", deleted: "Endpoint eliminado.", back: "Todos los endpoints", openEndpoint: "Abrir"
    }
  },
  operator: {
    common: {
      conflict: "Alguien más cambió esto desde que lo abrió: recargue la página para ver la versión actual y repita su cambio.",
      previous: "Anterior", next: "Siguiente", page: "Página", of: "de", sandbox: "Sandbox", production: "Producción", environment: "Ambiente",
      shown: "Ambiente mostrado", noProduction: "producción no tiene conector configurado en este host",
      unavailable: "La API no respondió los datos de esta página.",
      already: "Esto ya estaba resuelto (por alguien más, o por un clic anterior en el mismo formulario): no se hizo nada más."
    },
    connectors: {
      title: "Conectores", instances: "Instancias de conectores", id: "Id", name: "Nombre", environments: "Ambientes", none: "No hay conectores registrados.",
      health: "Salud por riel", provider: "Proveedor", rail: "Riel (id del método)", circuit: "Circuito", attempts: "Intentos", failures: "Fallos", conversion: "Conversión",
      noHealth: "Sin intentos en este periodo.", window: "Periodo (horas)", show: "Mostrar", hour: "Hora (UTC)", conversionChart: "Conversión por hora (%)",
      latencyChart: "Latencia de respuesta por hora (ms)", closed: "cerrado", open: "abierto", half_open: "medio abierto", p50: "p50", p95: "p95", conversionSeries: "Conversión %", declines: "Rechazos de tarjeta"
    },
    depositSettings: {
      title: "Métodos de depósito", shop: "Tienda", methods: "Ids de métodos de depósito", methodsHint: "Separados por comas, ej.: mx_spei_stp, mx_spei_arcus; vacío: ninguno.",
      phone: "Crear una cuenta requiere teléfono", yes: "Sí", no: "No", save: "Guardar", done: "Configuración de depósitos guardada.", back: "Volver a comercios"
    },
    fxRates: {
      title: "Tipos de cambio", currency: "Moneda", perUsd: "Unidades por 1 USD (medio)", enabled: "Activa", updated: "Actualizada", none: "No hay tipos definidos.",
      markup: "Margen en conversiones", set: "Definir un tipo", save: "Guardar tipo", yes: "Sí (en uso)", no: "No (retirado: conversiones rechazadas)", done: "Tipo guardado.",
      currencyHint: "Código ISO 4217, ej.: BRL", active: "activa", withdrawn: "retirada"
    },
    merchants: {
      title: "Comercios", merchant: "Comercio", email: "Correo", tier: "Plan", created: "Creado", shops: "Tiendas", none: "Aún no hay comercios.",
      create: "Nuevo comercio", name: "Nombre", industry: "Industria (opcional)", createButton: "Crear comercio", rotate: "Rotar llaves",
      routing: "Enrutamiento", deposits: "Métodos de depósito", keysOnce: "Copie estas llaves ahora: se muestran una sola vez.",
      created201: "Comercio creado", rotated: "Llaves rotadas", revoked: "pares de llaves revocados", sandboxKeys: "Llaves de sandbox", productionKeys: "Llaves de producción",
      publishable: "Llave publicable", secret: "Llave secreta", shopNames: "Nombres de tiendas (opcional, uno por línea)", back: "Volver a comercios"
    },
    queues: {
      title: "Colas", payouts: "Dispersiones detenidas en proceso", chargebacks: "Contracargos abiertos", withdrawals: "Retiros esperando al banco",
      discrepancies: "Discrepancias de conciliación abiertas", id: "Id (tienda)", shop: "Tienda", amount: "Monto", created: "Creado", method: "Método", provider: "Proveedor",
      action: "Resolver", resolve: "Resolver", completed: "Completado", failed: "Fallido", reason: "Motivo del fallo (si falló)", outcome: "Resultado",
      won: "Ganado (para el comercio)", lost: "Perdido (para el comprador)", payment: "Pago", destination: "Destino", kind: "Tipo", detail: "Detalle",
      note: "Nota", resolvedBy: "Resuelto por", writeOff: "Castigo en USD (opcional)", olderThan: "En proceso desde hace al menos (minutos)", show: "Mostrar",
      nonePayouts: "Ninguna dispersión detenida.", noneChargebacks: "Ningún contracargo abierto.", noneWithdrawals: "Ningún retiro esperando.", noneDiscrepancies: "Ninguna discrepancia abierta.",
      donePayout: "Dispersión resuelta.", doneChargeback: "Contracargo resuelto.", doneWithdrawal: "Retiro resuelto.", doneDiscrepancy: "Discrepancia resuelta.",
      total: "en total"
    },
    reconciliation: {
      title: "Conciliación", reports: "Reportes importados", report: "Reporte", provider: "Proveedor", format: "Formato", period: "Periodo",
      lines: "Líneas", matched: "Conciliadas", discrepancies: "Discrepancias", source: "Origen", imported: "Importado", allProviders: "Todos los proveedores",
      show: "Mostrar", none: "Aún no se importó ningún reporte.", upload: "Subir el reporte de un proveedor", file: "Archivo del reporte",
      fileHint: "El archivo tal como lo envió el proveedor (CSV o JSON), hasta 32 MiB. El mismo archivo otra vez no cambia nada.",
      uploadButton: "Subir y conciliar", run: "Obtener un reporte ahora", runHint: "Para proveedores con API de reportes (Mercado Pago, Pagar.me): se obtiene y concilia el reporte del periodo, como en la ejecución diaria.",
      periodStart: "Desde (día UTC)", periodEnd: "Hasta (día UTC, exclusivo)", runButton: "Ejecutar ahora", chooseFile: "Elija el archivo del reporte.",
      tooLarge: "El archivo pesa más de 32 MiB: divida el periodo en reportes más pequeños.", unreadable: "No se pudo leer el archivo del formulario: elíjalo otra vez y reenvíe.",
      formats: "Formatos de este proveedor"
    },
    reconciliationSources: { upload: "Subido", fetch: "Obtenido (ejecución)" },
    reconciliationReport: {
      report: "Reporte", back: "Todos los reportes", provider: "Proveedor", format: "Formato", source: "Origen", period: "Periodo", file: "SHA-256 del archivo",
      lines: "Líneas", matched: "Conciliadas", unmatchable: "Líneas que no son de pago ni de reembolso", imported: "Importado", byKind: "Discrepancias por tipo",
      kind: "Tipo", count: "Cantidad", clearing: "La cuenta de compensación del proveedor explicada", clearingRule: "Por moneda, para los registros de este reporte: lo que el motor espera = lo que el proveedor reportó + lo que sigue pendiente en el proveedor + las discrepancias.",
      currency: "Moneda", engineExpects: "El motor espera", providerReported: "El proveedor reportó", pending: "Pendiente en el proveedor", discrepancyAmount: "En discrepancias",
      clearingUsd: "Registrado en la compensación del proveedor (USD)", discrepancies: "Discrepancias encontradas", id: "Id", state: "Estado", shop: "Tienda", detail: "Detalle", created: "Encontrada",
      none: "Ninguna discrepancia: el reporte del proveedor coincide con el motor.", noKinds: "Ninguna.", doneImported: "Reporte importado y conciliado.",
      doneKnown: "Este mismo archivo ya se había importado: nada cambió.", toQueues: "Resolver discrepancias abiertas en las colas",
      discrepancy: "Discrepancia", providerSide: "La línea del proveedor", engineSide: "El registro del motor", line: "Línea", providerRef: "Referencia del proveedor",
      reference: "Referencia", providerStatus: "Estado en el proveedor", normalized: "Leída como", amount: "Monto", fee: "Comisión", occurred: "Cuándo",
      record: "Registro", moved: "Dinero movido", feeUsd: "Comisión (USD)", movedAt: "Movido el", yes: "Sí", no: "No", noLine: "Ninguna línea del reporte (falta en él).",
      noRecord: "Ningún registro del motor corresponde a esta línea.", resolution: "Resolución", note: "Nota", resolvedBy: "Resuelto por", resolvedAt: "Resuelto el",
      adjustment: "Asiento de ajuste", resolve: "Resolver", writeOff: "Castigo en USD (opcional)", writeOffHint: "Reduce la cuenta por cobrar al proveedor en este monto (negativo: el proveedor debe más); un asiento nuevo, el historial nunca se edita.",
      resolveButton: "Resolver discrepancia"
    },
    routing: {
      title: "Enrutamiento", shop: "Id de tienda", open: "Abrir", pick: "Ingrese el id de una tienda (en la página Comercios).", routes: "Rutas de proveedores",
      provider: "Proveedor", priority: "Prioridad", methods: "Ids de métodos de pago", enabled: "Activa", remove: "Quitar", none: "Sin rutas: en sandbox el proveedor sandbox atiende todos los rieles.",
      addRoute: "Agregar o cambiar una ruta", methodsHint: "Separados por comas; vacío: todos los métodos del proveedor.", yes: "Sí", no: "No", save: "Guardar ruta",
      config: "Configuración de enrutamiento", version: "Versión", strategy: "Estrategia", rules: "Reglas (JSON)", rulesHint: 'Un arreglo JSON: [{"id": "br-pix", "when": {"countries": ["BR"]}, "providers": ["p1", "p2"]}] o con "split": [{"provider": "p1", "weight": 80}].',
      defaultSel: "Selección por defecto (JSON, opcional)", defaultHint: 'Ej.: {"providers": ["p1"]}; vacío: las rutas de la tienda.', saveConfig: "Guardar configuración",
      notJson: "Esto no es JSON válido", notArray: "Se esperaba un arreglo JSON de reglas", notObject: "Se esperaba un objeto JSON",
      doneRoute: "Ruta guardada.", doneRemoved: "Ruta quitada.", doneConfig: "Configuración de enrutamiento guardada.", never: "nunca configurado",
      static: "static: el orden de los candidatos", health: "health: omite circuitos abiertos", success_rate: "success_rate: por conversión reciente"
    }
  }
}

export const es: Catalog = { pages, console: consoleWords }
