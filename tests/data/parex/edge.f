le chat est sur le tapis
un chat est un chat noir
le chat noir
les chats
