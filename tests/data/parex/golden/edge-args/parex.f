le
chat
