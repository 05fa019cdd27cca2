/** The Portuguese catalog: the same keys as the English one (`en.ts`), which the compiler checks. */
import type { Catalog } from "./en.ts"

const pages: Catalog["pages"] = {
  channel: { ONLINE: "Transferência e pagamento instantâneo", CASH: "Dinheiro", CREDIT_CARD: "Cartão" },
  kinds: { bank_transfer: "transferência bancária", online_debit: "débito online", cash: "boleto em dinheiro", card: "cartão", wallet: "carteira digital" },
  title: "Pagamento",
  heading: "Conclua seu pagamento",
  payWith: "Pagar com",
  moreMethods: (count) => `Mostrar mais ${count}`,
  yourDetails: "Seus dados",
  fullName: "Nome completo",
  email: "E-mail",
  documentId: "Número do documento de identidade",
  documentHint: "CPF, CNPJ... como a forma de pagamento pede",
  phone: "Telefone (com código do país)",
  phoneHint: "A forma de pagamento escolhida pede o telefone",
  installments: "Parcelas",
  payOnce: (total) => `À vista, ${total}`,
  payInInstalments: (count, each, first) => first === each ? `${count}x de ${each} sem juros` : `${count}x de ${each} (a primeira ${first}) sem juros`,
  installmentsHint: "Para pagamento com cartão",
  address: "Seu endereço",
  street: "Rua ou avenida",
  number: "Número",
  numberHint: "S/N se o endereço não tiver",
  complement: "Complemento (opcional)",
  district: "Bairro",
  city: "Cidade",
  state: "Estado (UF)",
  postalCode: "CEP",
  submit: "Continuar para o pagamento",
  cancel: "Cancelar e voltar à loja",
  noMethodHeading: "Nenhuma forma de pagamento disponível",
  noMethodBody: "Esta loja não pode receber pagamentos aqui agora. Volte à loja.",
  expiredTitle: "Link de pagamento expirado",
  expiredHeading: "Este link de pagamento expirou",
  expiredBody: "Os links de pagamento valem por 24 horas. Volte à loja e comece o pagamento de novo.",
  usedTitle: "Pagamento já iniciado",
  usedHeading: "Este pagamento já foi iniciado",
  usedBody: "Uma forma de pagamento já foi escolhida para este pagamento.",
  usedContinue: "Continuar para o pagamento",
  backToShop: "Voltar à loja",
  sandbox: {
    notice: "Provedor de testes (sandbox) — nenhum dinheiro real se move",
    paymentIs: (id, status) => `O pagamento ${id} está ${status}.`,
    status: { pending: "pendente", completed: "concluído", failed: "recusado", refunded: "reembolsado", expired: "expirado", chargeback: "contestado", authorized: "autorizado", voided: "cancelado" },
    pay: "Pagar",
    fail: "Fazer o pagamento falhar",
    notFoundTitle: "Pagamento não encontrado",
    notFoundBody: "Este pagamento de teste não existe.",
    badRequest: "Escolha Pagar ou Fazer o pagamento falhar.",
    challengeTitle: "Autenticação 3-D Secure",
    challengeBody: "Seu banco pede que você confirme este pagamento com cartão. No sandbox, escolha como a autenticação termina.",
    authenticate: "Concluir a autenticação",
    failAuthentication: "Fazer a autenticação falhar"
  },
  threeDSecure: {
    title: "Autenticação concluída",
    body: "Seu banco respondeu. A loja vai confirmar seu pagamento; você pode fechar esta página.",
    notFoundTitle: "Pagamento não encontrado"
  },
  script: {
    name: "Informe seu nome e sobrenome.",
    email: "Informe um e-mail válido, como nome@exemplo.com.",
    document: "Informe o número do seu documento.",
    documentInvalid: "Este número de documento não é válido para o país da forma de pagamento: confira os dígitos.",
    phone: "Informe seu telefone com o código do país, como +5511987654321.",
    street: "Informe a rua ou avenida.",
    number: "Informe o número do endereço, ou S/N.",
    district: "Informe o bairro.",
    city: "Informe a cidade.",
    state: "Informe o estado.",
    stateCode: "Informe a sigla do estado, como SP.",
    postalCode: "Informe um CEP válido, como 01310-100.",
    address: "A forma de pagamento escolhida pede seu endereço.",
    method: "Escolha uma forma de pagamento.",
    check: "Confira este campo.",
    failed: "Não foi possível iniciar o pagamento. Tente de novo.",
    offline: "A conexão falhou. Tente de novo."
  }
}

const consoleWords: Catalog["console"] = {
  shell: {
    layout: {
      console: "Console", sandbox: "Sandbox", production: "Produção", sandboxNote: "Sandbox: dados de teste, sem dinheiro real",
      productionNote: "Produção: dinheiro real", switchTo: "Mudar para", signOut: "Sair", operator: "Operador",
      skip: "Ir para o conteúdo", language: "Idioma", apply: "Aplicar", navigation: "Seções",
      payments: "Pagamentos", balances: "Saldos", payouts: "Pagamentos enviados", settlements: "Liquidações", webhooks: "Webhooks",
      developers: "Desenvolvedores", team: "Equipe", merchants: "Comerciantes", connectors: "Conectores", routing: "Roteamento", queues: "Filas",
      fxRates: "Câmbio", reconciliation: "Conciliação"
    },
    page: {
      forbidden: "Este formulário não veio do console", forbiddenBody: "Nada foi feito. Abra a página de novo e repita a ação.",
      notFound: "Página inexistente", notFoundBody: "Esta página não existe para este acesso."
    },
    invitation: {
      title: "Entrar na equipe", intro: "Escolha uma senha (12 caracteres ou mais) para", password: "Senha", next: "Continuar",
      enrolTitle: "Configure seu aplicativo autenticador", enrolIntro: "Adicione este segredo a um aplicativo autenticador (qualquer app TOTP: digite-o à mão) e informe o código de seis dígitos que ele mostra.",
      secret: "Segredo", uri: "Ou abra este link no celular", code: "Código", confirm: "Confirmar", doneTitle: "Você está na equipe",
      done: "Entre com seu e-mail, sua senha e um código do seu aplicativo.", invalid: "Este link de convite não é válido ou expirou: peça um novo.",
      signIn: "Entrar"
    },
    signIn: {
      title: "Entrar", merchant: "Comerciante",
      sso: "Entrar com sua organização", ssoHint: "Se sua empresa faz seu login com o provedor de identidade dela.", ssoTitle: "Continuar na sua organização", ssoContinue: "Continuar para o login da sua organização", rejectedSso: "O login único não fez seu login",
      member: "Membro da equipe", memberHint: "Seu e-mail, sua senha e o código de seis dígitos do seu aplicativo autenticador.", email: "E-mail", password: "Senha",
      code: "Código", environment: "Ambiente", rejectedMember: "O e-mail, a senha ou o código não foram aceitos", merchantHint: "Use um par de chaves do ambiente que deseja ver: pk_test_/sk_test_ para sandbox, pk_live_/sk_live_ para produção. As chaves são trocadas por uma sessão e não são guardadas.",
      publishableKey: "Chave publicável", secretKey: "Chave secreta", signIn: "Entrar", operator: "Operador", adminToken: "Token de administração",
      operatorHint: "O ADMIN_TOKEN do servidor.", rejected: "Estas chaves não foram aceitas", rejectedAdmin: "Este token de administração não foi aceito",
      switching: "Entre com um par de chaves do ambiente para o qual está mudando.", sandbox: "sandbox", production: "produção",
      foreign: "Este formulário não veio do console; nada foi feito.",
      needsHttps: "O console precisa de HTTPS (PUBLIC_URL https://…) ou de um endereço local: os navegadores só guardam o cookie seguro da sessão assim."
    }
  },
  merchant: {
    balances: {
      title: "Saldos", payin: "Saldo de recebimentos", payout: "Saldo de pagamentos", currency: "Moeda", available: "Disponível", pending: "Pendente",
      frozen: "Congelado", reserve: "Reserva", owed: "Devido", reserved: "Reservado", localNote: "Moedas locais mostram congelado e reserva juntos, em Reserva.",
      transferable: "Transferível dos recebimentos", chart: "Saldo disponível, últimos 30 dias", day: "Dia", movements: "Movimentos recentes",
      when: "Quando", type: "Tipo", reference: "Referência", amount: "Valor", books: "Contas", noMovements: "Nenhum movimento ainda.",
      noPayout: "Nenhum saldo de pagamentos ainda.", swap: "Trocar uma moeda local por USD", swapped: "Troca feita: os USD estão no seu saldo disponível.",
      warnings: "Avisos", net: "Saldo líquido", unavailable: "Não foi possível ler o saldo.", fund: "Abastecer o saldo de pagamentos",
      movement: "Movimento", availableChange: "Disponível", elsewhere: "Pendente, congelado, reserva"
    },
    balanceKinds: {
      "payment.completed": "Pagamento recebido", "payment.settled": "Pagamento liquidado", "payment.failed": "Pagamento falhou",
      "reserve.released": "Reserva liberada", "claim.opened": "Reembolso solicitado", "claim.resolved": "Reembolso concluído",
      "claim.rejected": "Reembolso rejeitado", "refund.completed": "Reembolso concluído", "refund.failed": "Reembolso falhou",
      "chargeback.opened": "Chargeback aberto", "chargeback.won": "Chargeback ganho", "chargeback.lost": "Chargeback perdido",
      "balance.swap": "Troca de moeda", "balance.fund_sandbox": "Fundos de sandbox", "withdrawal.requested": "Saque solicitado",
      "withdrawal.completed": "Saque concluído", "withdrawal.failed": "Saque falhou (devolvido)", "payout.transfer": "Transferência ao saldo de pagamentos",
      "settlement.closed": "Lote de liquidação fechado", "settlement.failed": "Pagamento da liquidação falhou (devolvido)", "deposit.credited": "Depósito creditado"
    },
    deliveries: {
      delivery: "Entrega", event: "Evento", status: "Status", attempts: "Tentativas", created: "Criada", next: "Próxima tentativa", succeeded: "Entregue",
      request: "Requisição", response: "Resposta", url: "URL", headers: "Cabeçalhos", header: "Cabeçalho", value: "Valor", body: "Corpo",
      statusCode: "Código de status", error: "Erro", excerpt: "Corpo (primeiros 1024 caracteres)", noAnswer: "Ainda não tentada.", empty: "(vazio)",
      replay: "Reenviar", replayHint: "Enfileira esta entrega de novo agora, com o mesmo corpo. Um reenvio por clique.", replayButton: "Reenviar esta entrega",
      replayed: "A entrega foi enfileirada de novo; atualize para ver o novo resultado.", back: "Voltar ao endpoint", payment: "Pagamento"
    },
    auditLog: {
      title: "Registro de auditoria", hint: "Quem mudou o quê nesta conta, neste ambiente, do mais novo ao mais antigo: chaves, chaves restritas, webhooks, contas de conector, a equipe e as mudanças do operador. Cada registro se encadeia ao anterior pelo seu hash.",
      when: "Quando", who: "Quem", operation: "Operação", object: "Objeto", changes: "Mudanças", show: "Mostrar", none: "Nenhuma mudança registrada ainda.",
      newer: "Mais novos", older: "Mais antigos", page: "Páginas", back: "Desenvolvedores", link: "Ler o registro de auditoria"
    },
    developerEvents: {
      title: "Eventos", type: "Tipo", any: "Todos os tipos", filter: "Filtrar", id: "Evento", created: "Criado", related: "Sobre", json: "JSON",
      show: "Mostrar", none: "Nenhum evento encontrado.", newer: "Mais novos", older: "Mais antigos", page: "Páginas", back: "Desenvolvedores"
    },
    developers: {
      title: "Desenvolvedores", keys: "Chaves de API", publishable: "Chave publicável", secret: "Chave secreta", version: "Versão", created: "Emitida",
      rotate: "Trocar as chaves", rotateHint: "Revoga o par de chaves deste ambiente e todo token emitido com ele, e emite um novo par. Toda integração com as chaves antigas para na hora, e você terá que entrar de novo com as novas chaves.",
      rotateButton: "Trocar as chaves deste ambiente", rotatedTitle: "Chaves trocadas", newKeys: "Suas novas chaves",
      rotatedOnce: "Copie a chave secreta agora: ela é mostrada uma única vez. As chaves antigas não funcionam mais, e esta sessão do console terminou.",
      signInAgain: "Entrar com as novas chaves", requests: "Requisições recentes", method: "Método", path: "Caminho", statusCode: "Status", requestId: "Id da requisição",
      time: "Hora", duration: "ms", noRequests: "Nenhuma requisição à API ainda.", requestsHint: "As últimas 100 requisições à API desta loja neste ambiente.",
      events: "Eventos", eventsLink: "Ver os eventos", auditLink: "Ler o registro de auditoria", clock: "Relógio de teste do sandbox", now: "Hora da loja agora", offset: "Adiantado em relação ao tempo real",
      advance: "Avançar", seconds: "Quanto", advanceButton: "Avançar o relógio", advanced: "O relógio do sandbox avançou; tudo o que venceu foi executado.",
      hour: "1 hora", day: "1 dia", week: "7 dias", month: "30 dias", clockHint: "Avança a hora do sandbox desta loja e executa o que venceu (expiração, liquidação, novas tentativas). O tempo nunca volta.",
      revoked: "A chave restrita foi revogada: ela não funciona mais."
    },
    team: {
      title: "Equipe", hint: "Pessoas que entram como elas mesmas, cada uma com um papel. Remover alguém ou mudar seu papel encerra suas sessões na hora.",
      members: "Membros", email: "E-mail", name: "Nome", role: "Papel", status: "Situação", actions: "Ações", save: "Salvar papel", remove: "Remover",
      none: "Nenhum membro ainda.", invite: "Convidar alguém", invited: "convidado", active: "ativo", sent: "Convite enviado para",
      linkTitle: "Link do convite", linkOnce: "Este servidor não envia e-mails: entregue este link à pessoa você mesmo. Ele aparece só uma vez e vale por 72 horas.",
      back: "Voltar à equipe", saved: "Papel salvo.", removedDone: "Membro removido."
    },
    restrictedKeys: {
      title: "Chaves restritas", active: "Chaves restritas ativas", hint: "Chaves secretas que chamam só as operações que suas permissões cobrem (leitura, ou escrita, que inclui leitura). Não gerenciam chaves.",
      name: "Nome", permissions: "Permissões", secret: "Chave secreta", created: "Criada em", actions: "Ações", revoke: "Revogar", none: "Nenhuma chave restrita.",
      noAccess: "Nenhum", read: "Leitura", write: "Escrita", create: "Criar uma chave restrita", createdTitle: "Chave restrita criada",
      once: "Copie a chave secreta agora: ela é mostrada uma única vez.", back: "Voltar para Desenvolvedores"
    },
    paymentDetail: {
      card: "Cartão", cardBrand: "Bandeira", cardNumber: "Número (BIN e últimos 4)", cardExpiry: "Validade", cardFingerprint: "Impressão digital", cardInstallments: "Parcelas", firstInstalment: "primeira",
      payment: "Pagamento", back: "Todos os pagamentos", summary: "Resumo", status: "Status", amountUsd: "Valor (USD)", amountLocal: "Comprador pagou",
      method: "Método", country: "País", order: "Pedido", fees: "Tarifas (USD)", refundable: "Reembolsável", created: "Criado",
      updated: "Atualizado", completed: "Concluído", expires: "Expira", failure: "Motivo da falha", provider: "Provedor",
      timeline: "Ciclo de vida", attempt: "Tentativa no provedor", latency: "latência", rule: "regra", strategy: "estratégia", circuit: "circuito",
      score: "pontuação", noRule: "ordem padrão", decline: "recusa do cartão", event: "Evento", delivery: "Entrega de webhook", attempts: "tentativas", answered: "respondeu",
      ledgerEntry: "Lançamento contábil", claim: "Contestação", refund: "Reembolso", claims: "Reembolsos e contestações", noClaims: "Nenhum reembolso ou contestação.",
      ledger: "Lançamentos contábeis", noLedger: "Nenhum lançamento ainda.", kind: "Tipo", amount: "Valor", reason: "Motivo", when: "Quando",
      entry: "Lançamento", type: "Tipo", reference: "Referência", postings: "Partidas", notFound: "Pagamento inexistente",
      refunded: "Reembolso solicitado. Fica pendente até o provedor confirmar.", refundSucceeded: "Reembolso concluído: o provedor confirmou.",
      refundFailed: "O reembolso falhou: o provedor não o fez e nada foi descontado.", buyer: "Comprador", buyerEmail: "E-mail do comprador", noDeliveries: "nenhuma entrega de webhook", tried: "tentou"
    },
    payments: {
      title: "Pagamentos", id: "Pagamento", status: "Status", amount: "Valor", local: "Comprador pagou", method: "Método", created: "Criado",
      order: "Pedido", buyer: "Comprador", search: "ID da transação ou e-mail do comprador", none: "Nenhum pagamento encontrado.", filters: "Filtros", any: "Qualquer", country: "País (código ISO)",
      from: "Criado a partir de", to: "Criado até", amountMin: "Valor a partir de (USD)", amountMax: "Valor até (USD)", apply: "Aplicar filtros",
      clear: "Limpar", next: "Próxima página", first: "Primeira página", paging: "Páginas", total: "pagamentos encontrados",
      pending: "Pendente", completed: "Concluído", failed: "Falhou", refunded: "Reembolsado", expired: "Expirado", chargeback: "Chargeback", authorized: "Autorizado", voided: "Cancelado"
    },
    payoutFunding: {
      title: "Abastecer o saldo de pagamentos", transfer: "Transferir USD do saldo de recebimentos", transferable: "Transferível agora", amountUsd: "Valor (USD)",
      doTransfer: "Transferir", swap: "Trocar USD de pagamentos por uma moeda local", to: "Moeda de destino", quote: "Cotar", doSwap: "Trocar agora",
      rate: "Taxa (unidades por USD)", receive: "Você recebe cerca de", indicative: "Cotação indicativa: a taxa é lida de novo quando a troca é executada.",
      transferred: "Transferência feita: os USD estão no seu saldo de pagamentos.", swapped: "Troca feita: o dinheiro está no seu saldo de pagamentos.",
      back: "Voltar aos saldos", payoutUsd: "USD disponível para pagamentos", quoteHeading: "Cotação"
    },
    payoutSend: {
      title: "Enviar um pagamento", chooseMethod: "Método de pagamento", choose: "Continuar", amount: "Valor", recipient: "Beneficiário", send: "Enviar pagamento",
      available: "Disponível", limits: "Limites (USD)", currency: "Moeda", noMethods: "Nenhum método de pagamento disponível.", optional: "opcional",
      notRoutable: "Indisponível aqui", fundFirst: "Primeiro abasteça o saldo de pagamentos nesta moeda.", change: "Escolher outro método"
    },
    payouts: {
      title: "Pagamentos enviados", send: "Enviar um pagamento", id: "Pagamento", status: "Status", amount: "Valor", method: "Método", created: "Criado",
      completed: "Concluído", none: "Nenhum pagamento enviado ainda.", provider: "Provedor", providerRef: "Referência do provedor", failure: "Motivo da falha",
      environment: "Ambiente", sent: "Pagamento criado.", previous: "Anterior", next: "Próxima", back: "Voltar aos pagamentos", page: "Página", all: "Todos", filter: "Filtrar",
      simulate: "Simular o resultado", simulateHint: "Só no sandbox: os pagamentos do sandbox esperam este sinal, como a resposta de um provedor em produção.", outcome: "Resultado",
      apply: "Simular", simulated: "Resultado simulado."
    },
    refundForm: {
      refund: "Reembolso", amount: "Valor", remaining: "Reembolsável agora", reason: "Motivo (opcional)", none: "Sem motivo",
      requested_by_customer: "Pedido pelo cliente", duplicate: "Duplicado", fraudulent: "Fraudulento", other: "Outro",
      submit: "Reembolsar", notRefundable: "Só um pagamento concluído com valor restante pode ser reembolsado."
    },
    settlements: {
      title: "Liquidações", batch: "Lote", status: "Status", period: "Período", net: "Líquido", gross: "Bruto", closed: "Fechado", lines: "Linhas",
      none: "Nenhum lote de liquidação: esta loja não tem agenda de liquidação, ou nenhum fechou ainda.", platformFees: "Taxas da plataforma", providerFees: "Taxas do provedor", chargebackFees: "Taxas de chargeback", refunds: "Reembolsos",
      chargebacks: "Chargebacks", owedRecovered: "Dívida recuperada", reserveHeld: "Reserva retida", reserveReleased: "Reserva liberada", other: "Outros",
      destination: "Destino", payoutRef: "Referência do pagamento", txHash: "Hash da transação", failure: "Motivo da falha", paidAt: "Pago",
      pdf: "Extrato (PDF)", csv: "Extrato (CSV)", openNote: "Este lote está aberto: suas linhas e extrato existem a partir do fechamento.",
      at: "Quando", kind: "Tipo", transaction: "Transação", order: "Pedido", method: "Método", local: "Valor local", usd: "Líquido (USD)", fees: "Taxas", reserve: "Reserva",
      back: "Voltar às liquidações", noLines: "Nenhuma linha.", downloads: "Extrato", previous: "Anterior", next: "Próxima", page: "Página"
    },
    swaps: {
      title: "Trocar para USD", from: "Moeda de origem", amount: "Valor", amountHint: "Na moeda de origem.", quote: "Cotar", swap: "Trocar agora",
      rate: "Taxa (USD por unidade)", receive: "Você recebe cerca de", availableNow: "Disponível agora", indicative: "Cotação indicativa: a taxa é lida de novo quando a troca é executada.",
      nothing: "Não há moeda local no seu saldo de recebimentos para trocar.", back: "Voltar aos saldos", quoteHeading: "Cotação"
    },
    webhookEndpoint: {
      endpoint: "Endpoint", settings: "Configurações", save: "Salvar", state: "Estado", on: "Ativo: recebe eventos", off: "Desligado: não recebe nada",
      danger: "Excluir", deleteHint: "Excluir descarta as entregas pendentes.", deleteButton: "Excluir este endpoint",
      secret: "Segredo de assinatura", rotateHint: "Um novo segredo; por 24 horas as entregas também são assinadas (v0) com o antigo.", rotate: "Trocar o segredo",
      test: "Teste", testHint: "Enfileira uma entrega webhook.test só para este endpoint. Nenhum dinheiro se move.", sendTest: "Enviar um evento de teste",
      deliveries: "Entregas", delivery: "Entrega", event: "Evento", status: "Status", attempts: "Tentativas", answer: "Última resposta", created: "Criada",
      none: "Nenhuma entrega ainda.", saved: "Configurações salvas.", tested: "Um evento de teste foi enfileirado; aparece abaixo quando enviado.",
      rotated: "O segredo foi trocado.", disabledReason: "Desligado pelo motor", managed: "Caixa gerenciada", newer: "Mais novas", older: "Mais antigas", page: "Páginas"
    },
    webhooks: {
      title: "Webhooks", endpoints: "Endpoints", url: "URL do endpoint", events: "Eventos", state: "Estado", created: "Criado", description: "Descrição",
      none: "Nenhum endpoint ainda.", add: "Adicionar um endpoint", create: "Adicionar endpoint", urlHint: "Para onde os eventos são enviados (POST): uma URL https (http no sandbox).",
      eventsHint: "Tipos de evento separados por vírgulas, ou * para todos.", active: "ativo", disabled: "desativado",
      secretTitle: "Novo segredo de assinatura", secretOnce: "Copie este segredo agora: ele é mostrado uma única vez. Ele verifica o cabeçalho X-Service-Signature de cada entrega.",
      created1: "Endpoint adicionado.", deleted: "Endpoint excluído.", back: "Todos os endpoints", openEndpoint: "Abrir"
    }
  },
  operator: {
    common: {
      conflict: "Isto foi alterado por outra pessoa desde que você abriu: recarregue a página para ver a versão atual e refaça a alteração.",
      previous: "Anterior", next: "Próxima", page: "Página", of: "de", sandbox: "Sandbox", production: "Produção", environment: "Ambiente",
      shown: "Ambiente mostrado", noProduction: "produção não tem conector configurado neste host",
      unavailable: "A API não respondeu os dados desta página.",
      already: "Isto já estava resolvido (por outra pessoa, ou por um clique anterior no mesmo formulário): nada mais foi feito."
    },
    connectors: {
      title: "Conectores", instances: "Instâncias de conectores", id: "Id", name: "Nome", environments: "Ambientes", none: "Nenhum conector registrado.",
      health: "Saúde por trilho", provider: "Provedor", rail: "Trilho (id do método)", circuit: "Circuito", attempts: "Tentativas", failures: "Falhas", conversion: "Conversão",
      noHealth: "Nenhuma tentativa neste período.", window: "Período (horas)", show: "Mostrar", hour: "Hora (UTC)", conversionChart: "Conversão por hora (%)",
      latencyChart: "Latência de resposta por hora (ms)", closed: "fechado", open: "aberto", half_open: "meio aberto", p50: "p50", p95: "p95", conversionSeries: "Conversão %", declines: "Recusas de cartão"
    },
    depositSettings: {
      title: "Métodos de depósito", shop: "Loja", methods: "Ids dos métodos de depósito", methodsHint: "Separados por vírgula, ex.: mx_spei_stp, mx_spei_arcus; vazio: nenhum.",
      phone: "Criar uma conta exige telefone", yes: "Sim", no: "Não", save: "Salvar", done: "Configurações de depósito salvas.", back: "Voltar aos comerciantes"
    },
    fxRates: {
      title: "Câmbio", currency: "Moeda", perUsd: "Unidades por 1 USD (médio)", enabled: "Ativa", updated: "Atualizada", none: "Nenhuma taxa definida.",
      markup: "Margem nas conversões", set: "Definir taxa", save: "Salvar taxa", yes: "Sim (em uso)", no: "Não (retirada: conversões recusadas)", done: "Taxa salva.",
      currencyHint: "Código ISO 4217, ex.: BRL", active: "ativa", withdrawn: "retirada"
    },
    merchants: {
      title: "Comerciantes", merchant: "Comerciante", email: "E-mail", tier: "Plano", created: "Criado", shops: "Lojas", none: "Nenhum comerciante ainda.",
      create: "Novo comerciante", name: "Nome", industry: "Setor (opcional)", createButton: "Criar comerciante", rotate: "Trocar chaves",
      routing: "Roteamento", deposits: "Métodos de depósito", keysOnce: "Copie estas chaves agora: elas aparecem uma única vez.",
      created201: "Comerciante criado", rotated: "Chaves trocadas", revoked: "pares de chaves revogados", sandboxKeys: "Chaves de sandbox", productionKeys: "Chaves de produção",
      publishable: "Chave publicável", secret: "Chave secreta", shopNames: "Nomes das lojas (opcional, um por linha)", back: "Voltar aos comerciantes"
    },
    queues: {
      title: "Filas", payouts: "Pagamentos enviados parados em processamento", chargebacks: "Chargebacks abertos", withdrawals: "Saques aguardando o banco",
      discrepancies: "Divergências de conciliação abertas", id: "Id (loja)", shop: "Loja", amount: "Valor", created: "Criado", method: "Método", provider: "Provedor",
      action: "Resolver", resolve: "Resolver", completed: "Concluído", failed: "Falhou", reason: "Motivo da falha (se falhou)", outcome: "Resultado",
      won: "Ganho (para o comerciante)", lost: "Perdido (para o comprador)", payment: "Pagamento", destination: "Destino", kind: "Tipo", detail: "Detalhe",
      note: "Nota", resolvedBy: "Resolvido por", writeOff: "Baixa em USD (opcional)", olderThan: "Em processamento há pelo menos (minutos)", show: "Mostrar",
      nonePayouts: "Nenhum pagamento parado.", noneChargebacks: "Nenhum chargeback aberto.", noneWithdrawals: "Nenhum saque aguardando.", noneDiscrepancies: "Nenhuma divergência aberta.",
      donePayout: "Pagamento resolvido.", doneChargeback: "Chargeback resolvido.", doneWithdrawal: "Saque resolvido.", doneDiscrepancy: "Divergência resolvida.",
      total: "no total"
    },
    reconciliation: {
      title: "Conciliação", reports: "Relatórios importados", report: "Relatório", provider: "Provedor", format: "Formato", period: "Período",
      lines: "Linhas", matched: "Conciliadas", discrepancies: "Divergências", source: "Origem", imported: "Importado", allProviders: "Todos os provedores",
      show: "Mostrar", none: "Nenhum relatório importado ainda.", upload: "Enviar o relatório de um provedor", file: "Arquivo do relatório",
      fileHint: "O arquivo exatamente como o provedor enviou (CSV ou JSON), até 32 MiB. O mesmo arquivo de novo não muda nada.",
      uploadButton: "Enviar e conciliar", run: "Buscar um relatório agora", runHint: "Para provedores com API de relatórios (Mercado Pago, Pagar.me): o relatório do período é buscado e conciliado, como na execução diária.",
      periodStart: "De (dia UTC)", periodEnd: "Até (dia UTC, exclusive)", runButton: "Executar agora", chooseFile: "Escolha o arquivo do relatório.",
      tooLarge: "O arquivo tem mais de 32 MiB: divida o período em relatórios menores.", unreadable: "Não foi possível ler o arquivo do formulário: escolha-o de novo e reenvie.",
      formats: "Formatos deste provedor"
    },
    reconciliationSources: { upload: "Enviado", fetch: "Buscado (execução)" },
    reconciliationReport: {
      report: "Relatório", back: "Todos os relatórios", provider: "Provedor", format: "Formato", source: "Origem", period: "Período", file: "SHA-256 do arquivo",
      lines: "Linhas", matched: "Conciliadas", unmatchable: "Linhas que não são de pagamento nem de reembolso", imported: "Importado", byKind: "Divergências por tipo",
      kind: "Tipo", count: "Quantidade", clearing: "A conta de compensação do provedor explicada", clearingRule: "Por moeda, para os registros deste relatório: o que o motor espera = o que o provedor informou + o que ainda está pendente no provedor + as divergências.",
      currency: "Moeda", engineExpects: "Motor espera", providerReported: "Provedor informou", pending: "Pendente no provedor", discrepancyAmount: "Em divergências",
      clearingUsd: "Lançado na compensação do provedor (USD)", discrepancies: "Divergências encontradas", id: "Id", state: "Situação", shop: "Loja", detail: "Detalhe", created: "Encontrada",
      none: "Nenhuma divergência: o relatório do provedor concorda com o motor.", noKinds: "Nenhuma.", doneImported: "Relatório importado e conciliado.",
      doneKnown: "Este mesmo arquivo já tinha sido importado: nada mudou.", toQueues: "Resolver divergências abertas nas filas",
      discrepancy: "Divergência", providerSide: "A linha do provedor", engineSide: "O registro do motor", line: "Linha", providerRef: "Referência do provedor",
      reference: "Referência", providerStatus: "Situação no provedor", normalized: "Lida como", amount: "Valor", fee: "Tarifa", occurred: "Quando",
      record: "Registro", moved: "Dinheiro movimentado", feeUsd: "Tarifa (USD)", movedAt: "Movimentado em", yes: "Sim", no: "Não", noLine: "Nenhuma linha do relatório (ausente dele).",
      noRecord: "Nenhum registro do motor corresponde a esta linha.", resolution: "Resolução", note: "Nota", resolvedBy: "Resolvido por", resolvedAt: "Resolvido em",
      adjustment: "Lançamento de ajuste", resolve: "Resolver", writeOff: "Baixa em USD (opcional)", writeOffHint: "Reduz o valor a receber do provedor neste montante (negativo: o provedor deve mais); um novo lançamento, o histórico nunca é editado.",
      resolveButton: "Resolver divergência"
    },
    routing: {
      title: "Roteamento", shop: "Id da loja", open: "Abrir", pick: "Informe o id de uma loja (listado na página Comerciantes).", routes: "Rotas de provedores",
      provider: "Provedor", priority: "Prioridade", methods: "Ids de métodos de pagamento", enabled: "Ativa", remove: "Remover", none: "Sem rotas: no sandbox o provedor sandbox atende todos os trilhos.",
      addRoute: "Adicionar ou alterar rota", methodsHint: "Separados por vírgula; vazio: todos os métodos do provedor.", yes: "Sim", no: "Não", save: "Salvar rota",
      config: "Configuração de roteamento", version: "Versão", strategy: "Estratégia", rules: "Regras (JSON)", rulesHint: 'Um array JSON: [{"id": "br-pix", "when": {"countries": ["BR"]}, "providers": ["p1", "p2"]}] ou com "split": [{"provider": "p1", "weight": 80}].',
      defaultSel: "Seleção padrão (JSON, opcional)", defaultHint: 'Ex.: {"providers": ["p1"]}; vazio: as rotas da loja.', saveConfig: "Salvar configuração",
      notJson: "Isto não é JSON válido", notArray: "Esperado um array JSON de regras", notObject: "Esperado um objeto JSON",
      doneRoute: "Rota salva.", doneRemoved: "Rota removida.", doneConfig: "Configuração de roteamento salva.", never: "nunca configurado",
      static: "static: a ordem dos candidatos", health: "health: pula circuitos abertos", success_rate: "success_rate: pela conversão recente"
    }
  }
}

export const pt: Catalog = { pages, console: consoleWords }
