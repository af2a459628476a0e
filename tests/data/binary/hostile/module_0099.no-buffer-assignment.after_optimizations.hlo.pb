
+main!
main
p	parameter˜(00