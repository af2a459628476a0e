
+main!
main
p	parameter˜(00
 M