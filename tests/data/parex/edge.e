the cat sat on the mat
a cat is a black cat
the dark cat , black and tiny
cats and kitty and feline only
