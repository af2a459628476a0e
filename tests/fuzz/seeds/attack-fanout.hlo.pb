
®n
attackmain¸
main
p	parameter˜‚
cconditional˜¢É²š
 !"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\]^_`abcdefghijklmnopqrstuvwxyz{|}~€‚ƒ„…†‡ˆ‰Š‹Œ‘’“”•–—˜™š›œŸ ¡¢£¤¥¦§¨©ª«¬­®¯°±²³´µ¶·¸¹º»¼½¾¿ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏĞÑ
t0bitcast˜¢
t1bitcast˜¢
t2bitcast˜¢
t3bitcast˜¢
t4bitcast˜¢
t5bitcast˜¢
t6bitcast˜	¢
t7bitcast˜
¢	
t8bitcast˜¢

t9bitcast˜¢
t10bitcast˜¢
t11bitcast˜¢
t12bitcast˜¢
t13bitcast˜¢
t14bitcast˜¢
t15bitcast˜¢
t16bitcast˜¢
t17bitcast˜¢
t18bitcast˜¢
t19bitcast˜¢(08
b0
bp0	parameter˜
k0constant˜(
08
b1
bp1	parameter˜
k1constant˜(08
b2
bp2	parameter˜
k2constant˜(08
b3
bp3	parameter˜
k3constant˜(08
b4
bp4	parameter˜
k4constant˜ (0 8
b5
bp5	parameter˜!
k5constant˜"(0"8
b6
bp6	parameter˜#
k6constant˜$(0$8
b7
bp7	parameter˜%
k7constant˜&(0&8
b8
bp8	parameter˜'
k8constant˜((0(8
b9
bp9	parameter˜)
k9constant˜*(0*;
b10
bp10	parameter˜+
k10constant˜,(0,;
b11
bp11	parameter˜-
k11constant˜.(0.;
b12
bp12	parameter˜/
k12constant˜0(00;
b13
bp13	parameter˜1
k13constant˜2(02;
b14
bp14	parameter˜3
k14constant˜4(04;
b15
bp15	parameter˜5
k15constant˜6(06;
b16
bp16	parameter˜7
k16constant˜8(08;
b17
bp17	parameter˜9
k17constant˜:(0:;
b18
bp18	parameter˜;
k18constant˜<(0<;
b19
bp19	parameter˜=
k19constant˜>(0>;
b20
bp20	parameter˜?
k20constant˜@(0@;
b21
bp21	parameter˜A
k21constant˜B(0B;
b22
bp22	parameter˜C
k22constant˜D( 0D;
b23
bp23	parameter˜E
k23constant˜F(!0F;
b24
bp24	parameter˜G
k24constant˜H("0H;
b25
bp25	parameter˜I
k25constant˜J(#0J;
b26
bp26	parameter˜K
k26constant˜L($0L;
b27
bp27	parameter˜M
k27constant˜N(%0N;
b28
bp28	parameter˜O
k28constant˜P(&0P;
b29
bp29	parameter˜Q
k29constant˜R('0R;
b30
bp30	parameter˜S
k30constant˜T((0T;
b31
bp31	parameter˜U
k31constant˜V()0V;
b32
bp32	parameter˜W
k32constant˜X(*0X;
b33
bp33	parameter˜Y
k33constant˜Z(+0Z;
b34
bp34	parameter˜[
k34constant˜\(,0\;
b35
bp35	parameter˜]
k35constant˜^(-0^;
b36
bp36	parameter˜_
k36constant˜`(.0`;
b37
bp37	parameter˜a
k37constant˜b(/0b;
b38
bp38	parameter˜c
k38constant˜d(00d;
b39
bp39	parameter˜e
k39constant˜f(10f;
b40
bp40	parameter˜g
k40constant˜h(20h;
b41
bp41	parameter˜i
k41constant˜j(30j;
b42
bp42	parameter˜k
k42constant˜l(40l;
b43
bp43	parameter˜m
k43constant˜n(50n;
b44
bp44	parameter˜o
k44constant˜p(60p;
b45
bp45	parameter˜q
k45constant˜r(70r;
b46
bp46	parameter˜s
k46constant˜t(80t;
b47
bp47	parameter˜u
k47constant˜v(90v;
b48
bp48	parameter˜w
k48constant˜x(:0x;
b49
bp49	parameter˜y
k49constant˜z(;0z;
b50
bp50	parameter˜{
k50constant˜|(<0|;
b51
bp51	parameter˜}
k51constant˜~(=0~=
b52
bp52	parameter˜
k52constant˜€(>0€>
b53
bp53	parameter˜
k53constant˜‚(?0‚>
b54
bp54	parameter˜ƒ
k54constant˜„(@0„>
b55
bp55	parameter˜…
k55constant˜†(A0†>
b56
bp56	parameter˜‡
k56constant˜ˆ(B0ˆ>
b57
bp57	parameter˜‰
k57constant˜Š(C0Š>
b58
bp58	parameter˜‹
k58constant˜Œ(D0Œ>
b59
bp59	parameter˜
k59constant˜(E0>
b60
bp60	parameter˜
k60constant˜(F0>
b61
bp61	parameter˜‘
k61constant˜’(G0’>
b62
bp62	parameter˜“
k62constant˜”(H0”>
b63
bp63	parameter˜•
k63constant˜–(I0–>
b64
bp64	parameter˜—
k64constant˜˜(J0˜>
b65
bp65	parameter˜™
k65constant˜š(K0š>
b66
bp66	parameter˜›
k66constant˜œ(L0œ>
b67
bp67	parameter˜
k67constant˜(M0>
b68
bp68	parameter˜Ÿ
k68constant˜ (N0 >
b69
bp69	parameter˜¡
k69constant˜¢(O0¢>
b70
bp70	parameter˜£
k70constant˜¤(P0¤>
b71
bp71	parameter˜¥
k71constant˜¦(Q0¦>
b72
bp72	parameter˜§
k72constant˜¨(R0¨>
b73
bp73	parameter˜©
k73constant˜ª(S0ª>
b74
bp74	parameter˜«
k74constant˜¬(T0¬>
b75
bp75	parameter˜­
k75constant˜®(U0®>
b76
bp76	parameter˜¯
k76constant˜°(V0°>
b77
bp77	parameter˜±
k77constant˜²(W0²>
b78
bp78	parameter˜³
k78constant˜´(X0´>
b79
bp79	parameter˜µ
k79constant˜¶(Y0¶>
b80
bp80	parameter˜·
k80constant˜¸(Z0¸>
b81
bp81	parameter˜¹
k81constant˜º([0º>
b82
bp82	parameter˜»
k82constant˜¼(\0¼>
b83
bp83	parameter˜½
k83constant˜¾(]0¾>
b84
bp84	parameter˜¿
k84constant˜À(^0À>
b85
bp85	parameter˜Á
k85constant˜Â(_0Â>
b86
bp86	parameter˜Ã
k86constant˜Ä(`0Ä>
b87
bp87	parameter˜Å
k87constant˜Æ(a0Æ>
b88
bp88	parameter˜Ç
k88constant˜È(b0È>
b89
bp89	parameter˜É
k89constant˜Ê(c0Ê>
b90
bp90	parameter˜Ë
k90constant˜Ì(d0Ì>
b91
bp91	parameter˜Í
k91constant˜Î(e0Î>
b92
bp92	parameter˜Ï
k92constant˜Ğ(f0Ğ>
b93
bp93	parameter˜Ñ
k93constant˜Ò(g0Ò>
b94
bp94	parameter˜Ó
k94constant˜Ô(h0Ô>
b95
bp95	parameter˜Õ
k95constant˜Ö(i0Ö>
b96
bp96	parameter˜×
k96constant˜Ø(j0Ø>
b97
bp97	parameter˜Ù
k97constant˜Ú(k0Ú>
b98
bp98	parameter˜Û
k98constant˜Ü(l0Ü>
b99
bp99	parameter˜İ
k99constant˜Ş(m0ŞA
b100
bp100	parameter˜ß
k100constant˜à(n0àA
b101
bp101	parameter˜á
k101constant˜â(o0âA
b102
bp102	parameter˜ã
k102constant˜ä(p0äA
b103
bp103	parameter˜å
k103constant˜æ(q0æA
b104
bp104	parameter˜ç
k104constant˜è(r0èA
b105
bp105	parameter˜é
k105constant˜ê(s0êA
b106
bp106	parameter˜ë
k106constant˜ì(t0ìA
b107
bp107	parameter˜í
k107constant˜î(u0îA
b108
bp108	parameter˜ï
k108constant˜ğ(v0ğA
b109
bp109	parameter˜ñ
k109constant˜ò(w0òA
b110
bp110	parameter˜ó
k110constant˜ô(x0ôA
b111
bp111	parameter˜õ
k111constant˜ö(y0öA
b112
bp112	parameter˜÷
k112constant˜ø(z0øA
b113
bp113	parameter˜ù
k113constant˜ú({0úA
b114
bp114	parameter˜û
k114constant˜ü(|0üA
b115
bp115	parameter˜ı
k115constant˜ş(}0şA
b116
bp116	parameter˜ÿ
k116constant˜€(~0€A
b117
bp117	parameter˜
k117constant˜‚(0‚B
b118
bp118	parameter˜ƒ
k118constant˜„(€0„B
b119
bp119	parameter˜…
k119constant˜†(0†B
b120
bp120	parameter˜‡
k120constant˜ˆ(‚0ˆB
b121
bp121	parameter˜‰
k121constant˜Š(ƒ0ŠB
b122
bp122	parameter˜‹
k122constant˜Œ(„0ŒB
b123
bp123	parameter˜
k123constant˜(…0B
b124
bp124	parameter˜
k124constant˜(†0B
b125
bp125	parameter˜‘
k125constant˜’(‡0’B
b126
bp126	parameter˜“
k126constant˜”(ˆ0”B
b127
bp127	parameter˜•
k127constant˜–(‰0–B
b128
bp128	parameter˜—
k128constant˜˜(Š0˜B
b129
bp129	parameter˜™
k129constant˜š(‹0šB
b130
bp130	parameter˜›
k130constant˜œ(Œ0œB
b131
bp131	parameter˜
k131constant˜(0B
b132
bp132	parameter˜Ÿ
k132constant˜ (0 B
b133
bp133	parameter˜¡
k133constant˜¢(0¢B
b134
bp134	parameter˜£
k134constant˜¤(0¤B
b135
bp135	parameter˜¥
k135constant˜¦(‘0¦B
b136
bp136	parameter˜§
k136constant˜¨(’0¨B
b137
bp137	parameter˜©
k137constant˜ª(“0ªB
b138
bp138	parameter˜«
k138constant˜¬(”0¬B
b139
bp139	parameter˜­
k139constant˜®(•0®B
b140
bp140	parameter˜¯
k140constant˜°(–0°B
b141
bp141	parameter˜±
k141constant˜²(—0²B
b142
bp142	parameter˜³
k142constant˜´(˜0´B
b143
bp143	parameter˜µ
k143constant˜¶(™0¶B
b144
bp144	parameter˜·
k144constant˜¸(š0¸B
b145
bp145	parameter˜¹
k145constant˜º(›0ºB
b146
bp146	parameter˜»
k146constant˜¼(œ0¼B
b147
bp147	parameter˜½
k147constant˜¾(0¾B
b148
bp148	parameter˜¿
k148constant˜À(0ÀB
b149
bp149	parameter˜Á
k149constant˜Â(Ÿ0ÂB
b150
bp150	parameter˜Ã
k150constant˜Ä( 0ÄB
b151
bp151	parameter˜Å
k151constant˜Æ(¡0ÆB
b152
bp152	parameter˜Ç
k152constant˜È(¢0ÈB
b153
bp153	parameter˜É
k153constant˜Ê(£0ÊB
b154
bp154	parameter˜Ë
k154constant˜Ì(¤0ÌB
b155
bp155	parameter˜Í
k155constant˜Î(¥0ÎB
b156
bp156	parameter˜Ï
k156constant˜Ğ(¦0ĞB
b157
bp157	parameter˜Ñ
k157constant˜Ò(§0ÒB
b158
bp158	parameter˜Ó
k158constant˜Ô(¨0ÔB
b159
bp159	parameter˜Õ
k159constant˜Ö(©0ÖB
b160
bp160	parameter˜×
k160constant˜Ø(ª0ØB
b161
bp161	parameter˜Ù
k161constant˜Ú(«0ÚB
b162
bp162	parameter˜Û
k162constant˜Ü(¬0ÜB
b163
bp163	parameter˜İ
k163constant˜Ş(­0ŞB
b164
bp164	parameter˜ß
k164constant˜à(®0àB
b165
bp165	parameter˜á
k165constant˜â(¯0âB
b166
bp166	parameter˜ã
k166constant˜ä(°0äB
b167
bp167	parameter˜å
k167constant˜æ(±0æB
b168
bp168	parameter˜ç
k168constant˜è(²0èB
b169
bp169	parameter˜é
k169constant˜ê(³0êB
b170
bp170	parameter˜ë
k170constant˜ì(´0ìB
b171
bp171	parameter˜í
k171constant˜î(µ0îB
b172
bp172	parameter˜ï
k172constant˜ğ(¶0ğB
b173
bp173	parameter˜ñ
k173constant˜ò(·0òB
b174
bp174	parameter˜ó
k174constant˜ô(¸0ôB
b175
bp175	parameter˜õ
k175constant˜ö(¹0öB
b176
bp176	parameter˜÷
k176constant˜ø(º0øB
b177
bp177	parameter˜ù
k177constant˜ú(»0úB
b178
bp178	parameter˜û
k178constant˜ü(¼0üB
b179
bp179	parameter˜ı
k179constant˜ş(½0şB
b180
bp180	parameter˜ÿ
k180constant˜€(¾0€B
b181
bp181	parameter˜
k181constant˜‚(¿0‚B
b182
bp182	parameter˜ƒ
k182constant˜„(À0„B
b183
bp183	parameter˜…
k183constant˜†(Á0†B
b184
bp184	parameter˜‡
k184constant˜ˆ(Â0ˆB
b185
bp185	parameter˜‰
k185constant˜Š(Ã0ŠB
b186
bp186	parameter˜‹
k186constant˜Œ(Ä0ŒB
b187
bp187	parameter˜
k187constant˜(Å0B
b188
bp188	parameter˜
k188constant˜(Æ0B
b189
bp189	parameter˜‘
k189constant˜’(Ç0’B
b190
bp190	parameter˜“
k190constant˜”(È0”B
b191
bp191	parameter˜•
k191constant˜–(É0–B
b192
bp192	parameter˜—
k192constant˜˜(Ê0˜B
b193
bp193	parameter˜™
k193constant˜š(Ë0šB
b194
bp194	parameter˜›
k194constant˜œ(Ì0œB
b195
bp195	parameter˜
k195constant˜(Í0B
b196
bp196	parameter˜Ÿ
k196constant˜ (Î0 B
b197
bp197	parameter˜¡
k197constant˜¢(Ï0¢B
b198
bp198	parameter˜£
k198constant˜¤(Ğ0¤B
b199
bp199	parameter˜¥
k199constant˜¦(Ñ0¦0:

	
±%
 
 
 
 
 
  
 "
 $
 &
	 (

 *
 ,
 .
 0
 2
 4
 6
 8
 :
 <
 >
 @
 B
 D
 F
 H
 J
 L
 N
 P
 R
 T
  V
! X
" Z
# \
$ ^
% `
& b
' d
( f
) h
* j
+ l
, n
- p
. r
/ t
0 v
1 x
2 z
3 |
4 ~
	5 €
	6 ‚
	7 „
	8 †
	9 ˆ
	: Š
	; Œ
	< 
	= 
	> ’
	? ”
	@ –
	A ˜
	B š
	C œ
	D 
	E  
	F ¢
	G ¤
	H ¦
	I ¨
	J ª
	K ¬
	L ®
	M °
	N ²
	O ´
	P ¶
	Q ¸
	R º
	S ¼
	T ¾
	U À
	V Â
	W Ä
	X Æ
	Y È
	Z Ê
	[ Ì
	\ Î
	] Ğ
	^ Ò
	_ Ô
	` Ö
	a Ø
	b Ú
	c Ü
	d Ş
	e à
	f â
	g ä
	h æ
	i è
	j ê
	k ì
	l î
	m ğ
	n ò
	o ô
	p ö
	q ø
	r ú
	s ü
	t ş
	u €
	v ‚
	w „
	x †
	y ˆ
	z Š
	{ Œ
	| 
	} 
	~ ’
	 ”

€ –

 ˜

‚ š

ƒ œ

„ 

…  

† ¢

‡ ¤

ˆ ¦

‰ ¨

Š ª

‹ ¬

Œ ®

 °

 ²

 ´

 ¶

‘ ¸

’ º

“ ¼

” ¾

• À

– Â

— Ä

˜ Æ

™ È

š Ê

› Ì

œ Î

 Ğ

 Ò

Ÿ Ô

  Ö

¡ Ø

¢ Ú

£ Ü

¤ Ş

¥ à

¦ â

§ ä

¨ æ

© è

ª ê

« ì

¬ î

­ ğ

® ò

¯ ô

° ö

± ø

² ú

³ ü

´ ş

µ €

¶ ‚

· „

¸ †

¹ ˆ

º Š

» Œ

¼ 

½ 

¾ ’

¿ ”

À –

Á ˜

Â š

Ã œ

Ä 

Å  

Æ ¢

Ç ¤

È ¦(J
J
J
J
J
J
J
J
J
	J	

J

J
J
J
J
J
J
J
J
J
J
J
J
J
J
J
J
J
J
J
J
J
 J 
!J!
"J"
#J#
$J$
%J%
&J&
'J'
(J(
)J)
*J*
+J+
,J,
-J-
.J.
/J/
0J0
1J1
2J2
3J3
4J4
5J5
6J6
7J7
8J8
9J9
:J:
;J;
<J<
=J=
>J>
?J?
@J@
AJA
BJB
CJC
DJD
EJE
FJF
GJG
HJH
IJI
JJJ
KJK
LJL
MJM
NJN
OJO
PJP
QJQ
RJR
SJS
TJT
UJU
VJV
WJW
XJX
YJY
ZJZ
[J[
\J\
]J]
^J^
_J_
`J`
aJa
bJb
cJc
dJd
eJe
fJf
gJg
hJh
iJi
jJj
kJk
lJl
mJm
nJn
oJo
pJp
qJq
rJr
sJs
tJt
uJu
vJv
wJw
xJx
yJy
zJz
{J{
|J|
}J}
~J~
J€J€J‚J‚ƒJƒ„J„…J…†J†‡J‡ˆJˆ‰J‰ŠJŠ‹J‹ŒJŒJJJJ‘J‘’J’“J“”J”•J•–J–—J—˜J˜™J™šJš›J›œJœJJŸJŸ J ¡J¡¢J¢£J£¤J¤¥J¥¦J¦§J§¨J¨©J©ªJª«J«¬J¬­J­®J®¯J¯°J°±J±²J²³J³´J´µJµ¶J¶·J·¸J¸¹J¹ºJº»J»¼J¼½J½¾J¾¿J¿ÀJÀÁJÁÂJÂÃJÃÄJÄÅJÅÆJÆÇJÇÈJÈ