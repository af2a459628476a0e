
“Г
attackmainум
main
p	parameterШ
f0bitcastШҐ
f1bitcastШҐ
f2bitcastШҐ
f3bitcastШҐ
f4bitcastШҐ
f5bitcastШҐ
f6bitcastШҐ
f7bitcastШ	Ґ
f8bitcastШ
Ґ
f9bitcastШҐ
f10bitcastШҐ
f11bitcastШҐ
f12bitcastШҐ
f13bitcastШҐ
f14bitcastШҐ
f15bitcastШҐ
f16bitcastШҐ
f17bitcastШҐ
f18bitcastШҐ
f19bitcastШҐ
f20bitcastШҐ
f21bitcastШҐ
f22bitcastШҐ
f23bitcastШҐ
f24bitcastШҐ
f25bitcastШҐ
f26bitcastШҐ
f27bitcastШҐ
f28bitcastШҐ
f29bitcastШҐ
f30bitcastШ Ґ
f31bitcastШ!Ґ
f32bitcastШ"Ґ
f33bitcastШ#Ґ
f34bitcastШ$Ґ
f35bitcastШ%Ґ
f36bitcastШ&Ґ
f37bitcastШ'Ґ
f38bitcastШ(Ґ
f39bitcastШ)Ґ
f40bitcastШ*Ґ
f41bitcastШ+Ґ
f42bitcastШ,Ґ
f43bitcastШ-Ґ
f44bitcastШ.Ґ
f45bitcastШ/Ґ
f46bitcastШ0Ґ
f47bitcastШ1Ґ
f48bitcastШ2Ґ
f49bitcastШ3Ґ
f50bitcastШ4Ґ
f51bitcastШ5Ґ
f52bitcastШ6Ґ
f53bitcastШ7Ґ
f54bitcastШ8Ґ
f55bitcastШ9Ґ
f56bitcastШ:Ґ
f57bitcastШ;Ґ
f58bitcastШ<Ґ
f59bitcastШ=Ґ
f60bitcastШ>Ґ
f61bitcastШ?Ґ
f62bitcastШ@Ґ
f63bitcastШAҐ
f64bitcastШBҐ
f65bitcastШCҐ
f66bitcastШDҐ
f67bitcastШEҐ
f68bitcastШFҐ
f69bitcastШGҐ
f70bitcastШHҐ
f71bitcastШIҐ
f72bitcastШJҐ
f73bitcastШKҐ
f74bitcastШLҐ
f75bitcastШMҐ
f76bitcastШNҐ
f77bitcastШOҐ
f78bitcastШPҐ
f79bitcastШQҐ
f80bitcastШRҐ
f81bitcastШSҐ
f82bitcastШTҐ
f83bitcastШUҐ
f84bitcastШVҐ
f85bitcastШWҐ
f86bitcastШXҐ
f87bitcastШYҐ
f88bitcastШZҐ
f89bitcastШ[Ґ
f90bitcastШ\Ґ
f91bitcastШ]Ґ
f92bitcastШ^Ґ
f93bitcastШ_Ґ
f94bitcastШ`Ґ
f95bitcastШaҐ
f96bitcastШbҐ
f97bitcastШcҐ
f98bitcastШdҐ
f99bitcastШeҐ
f100bitcastШfҐ
f101bitcastШgҐ
f102bitcastШhҐ
f103bitcastШiҐ
f104bitcastШjҐ
f105bitcastШkҐ
f106bitcastШlҐ
f107bitcastШmҐ
f108bitcastШnҐ
f109bitcastШoҐ
f110bitcastШpҐ
f111bitcastШqҐ
f112bitcastШrҐ
f113bitcastШsҐ
f114bitcastШtҐ
f115bitcastШuҐ
f116bitcastШvҐ
f117bitcastШwҐ
f118bitcastШxҐ
f119bitcastШyҐ
f120bitcastШzҐ
f121bitcastШ{Ґ
f122bitcastШ|Ґ
f123bitcastШ}Ґ
f124bitcastШ~Ґ
f125bitcastШҐ
f126bitcastШАҐ
f127bitcastШБҐ
f128bitcastШВҐ
f129bitcastШГҐ
f130bitcastШДҐ
f131bitcastШЕҐ
f132bitcastШЖҐ
f133bitcastШЗҐ
f134bitcastШИҐ
f135bitcastШЙҐ
f136bitcastШКҐ
f137bitcastШЛҐ
f138bitcastШМҐ
f139bitcastШНҐ
f140bitcastШОҐ
f141bitcastШПҐ
f142bitcastШРҐ
f143bitcastШСҐ
f144bitcastШТҐ
f145bitcastШУҐ
f146bitcastШФҐ
f147bitcastШХҐ
f148bitcastШЦҐ
f149bitcastШЧҐ
f150bitcastШШҐ
f151bitcastШЩҐ
f152bitcastШЪҐ
f153bitcastШЫҐ
f154bitcastШЬҐ
f155bitcastШЭҐ
f156bitcastШЮҐ
f157bitcastШЯҐ
f158bitcastШ†Ґ
f159bitcastШ°Ґ
f160bitcastШҐҐ
f161bitcastШ£Ґ
f162bitcastШ§Ґ
f163bitcastШ•Ґ
f164bitcastШ¶Ґ
f165bitcastШІҐ
f166bitcastШ®Ґ
f167bitcastШ©Ґ
f168bitcastШ™Ґ
f169bitcastШЂҐ
f170bitcastШђҐ
f171bitcastШ≠Ґ
f172bitcastШЃҐ
f173bitcastШѓҐ
f174bitcastШ∞Ґ
f175bitcastШ±Ґ
f176bitcastШ≤Ґ
f177bitcastШ≥Ґ
f178bitcastШіҐ
f179bitcastШµҐ
f180bitcastШґҐ
f181bitcastШЈҐ
f182bitcastШЄҐ
f183bitcastШєҐ
f184bitcastШЇҐ
f185bitcastШїҐ
f186bitcastШЉҐ
f187bitcastШљҐ
f188bitcastШЊҐ
f189bitcastШњҐ
f190bitcastШјҐ
f191bitcastШЅҐ
f192bitcastШ¬Ґ
f193bitcastШ√Ґ
f194bitcastШƒҐ
f195bitcastШ≈Ґ
f196bitcastШ∆Ґ
f197bitcastШ«Ґ
f198bitcastШ»Ґ
f199bitcastШ…Ґ
f200bitcastШ Ґ
f201bitcastШЋҐ
f202bitcastШћҐ
f203bitcastШЌҐ
f204bitcastШќҐ
f205bitcastШѕҐ
f206bitcastШ–Ґ
f207bitcastШ—Ґ
f208bitcastШ“Ґ
f209bitcastШ”Ґ
f210bitcastШ‘Ґ
f211bitcastШ’Ґ
f212bitcastШ÷Ґ
f213bitcastШ„Ґ
f214bitcastШЎҐ
f215bitcastШўҐ
f216bitcastШЏҐ
f217bitcastШџҐ
f218bitcastШ№Ґ
f219bitcastШЁҐ
f220bitcastШёҐ
f221bitcastШяҐ
f222bitcastШаҐ
f223bitcastШбҐ
f224bitcastШвҐ
f225bitcastШгҐ
f226bitcastШдҐ
f227bitcastШеҐ
f228bitcastШжҐ
f229bitcastШзҐ
f230bitcastШиҐ
f231bitcastШйҐ
f232bitcastШкҐ
f233bitcastШлҐ
f234bitcastШмҐ
f235bitcastШнҐ
f236bitcastШоҐ
f237bitcastШпҐ
f238bitcastШрҐ
f239bitcastШсҐ
f240bitcastШтҐ
f241bitcastШуҐ
f242bitcastШфҐ
f243bitcastШхҐ
f244bitcastШцҐ
f245bitcastШчҐ
f246bitcastШшҐ
f247bitcastШщҐ
f248bitcastШъҐ
f249bitcastШыҐ
f250bitcastШьҐ
f251bitcastШэҐ
f252bitcastШюҐ
f253bitcastШ€Ґ
f254bitcastШАҐ
f255bitcastШБҐ
f256bitcastШВҐ
f257bitcastШГҐ
f258bitcastШДҐ
f259bitcastШЕҐ
f260bitcastШЖҐ
f261bitcastШЗҐ
f262bitcastШИҐ
f263bitcastШЙҐ
f264bitcastШКҐ
f265bitcastШЛҐ
f266bitcastШМҐ
f267bitcastШНҐ
f268bitcastШОҐ
f269bitcastШПҐ
f270bitcastШРҐ
f271bitcastШСҐ
f272bitcastШТҐ
f273bitcastШУҐ
f274bitcastШФҐ
f275bitcastШХҐ
f276bitcastШЦҐ
f277bitcastШЧҐ
f278bitcastШШҐ
f279bitcastШЩҐ
f280bitcastШЪҐ
f281bitcastШЫҐ
f282bitcastШЬҐ
f283bitcastШЭҐ
f284bitcastШЮҐ
f285bitcastШЯҐ
f286bitcastШ†Ґ
f287bitcastШ°Ґ
f288bitcastШҐҐ
f289bitcastШ£Ґ
f290bitcastШ§Ґ
f291bitcastШ•Ґ
f292bitcastШ¶Ґ
f293bitcastШІҐ
f294bitcastШ®Ґ
f295bitcastШ©Ґ
f296bitcastШ™Ґ
f297bitcastШЂҐ
f298bitcastШђҐ
f299bitcastШ≠Ґ
f300bitcastШЃҐ
f301bitcastШѓҐ
f302bitcastШ∞Ґ
f303bitcastШ±Ґ
f304bitcastШ≤Ґ
f305bitcastШ≥Ґ
f306bitcastШіҐ
f307bitcastШµҐ
f308bitcastШґҐ
f309bitcastШЈҐ
f310bitcastШЄҐ
f311bitcastШєҐ
f312bitcastШЇҐ
f313bitcastШїҐ
f314bitcastШЉҐ
f315bitcastШљҐ
f316bitcastШЊҐ
f317bitcastШњҐ
f318bitcastШјҐ
f319bitcastШЅҐ
f320bitcastШ¬Ґ
f321bitcastШ√Ґ
f322bitcastШƒҐ
f323bitcastШ≈Ґ
f324bitcastШ∆Ґ
f325bitcastШ«Ґ
f326bitcastШ»Ґ
f327bitcastШ…Ґ
f328bitcastШ Ґ
f329bitcastШЋҐ
f330bitcastШћҐ
f331bitcastШЌҐ
f332bitcastШќҐ
f333bitcastШѕҐ
f334bitcastШ–Ґ
f335bitcastШ—Ґ
f336bitcastШ“Ґ
f337bitcastШ”Ґ
f338bitcastШ‘Ґ
f339bitcastШ’Ґ
f340bitcastШ÷Ґ
f341bitcastШ„Ґ
f342bitcastШЎҐ
f343bitcastШўҐ
f344bitcastШЏҐ
f345bitcastШџҐ
f346bitcastШ№Ґ
f347bitcastШЁҐ
f348bitcastШёҐ
f349bitcastШяҐ
f350bitcastШаҐ
f351bitcastШбҐ
f352bitcastШвҐ
f353bitcastШгҐ
f354bitcastШдҐ
f355bitcastШеҐ
f356bitcastШжҐ
f357bitcastШзҐ
f358bitcastШиҐ
f359bitcastШйҐ
f360bitcastШкҐ
f361bitcastШлҐ
f362bitcastШмҐ
f363bitcastШнҐ
f364bitcastШоҐ
f365bitcastШпҐ
f366bitcastШрҐ
f367bitcastШсҐ
f368bitcastШтҐ
f369bitcastШуҐ
f370bitcastШфҐ
f371bitcastШхҐ
f372bitcastШцҐ
f373bitcastШчҐ
f374bitcastШшҐ
f375bitcastШщҐ
f376bitcastШъҐ
f377bitcastШыҐ
f378bitcastШьҐ
f379bitcastШэҐ
f380bitcastШюҐ
f381bitcastШ€Ґ
f382bitcastШАҐ
f383bitcastШБҐ
f384bitcastШВҐ
f385bitcastШГҐ
f386bitcastШДҐ
f387bitcastШЕҐ
f388bitcastШЖҐ
f389bitcastШЗҐ
f390bitcastШИҐ
f391bitcastШЙҐ
f392bitcastШКҐ
f393bitcastШЛҐ
f394bitcastШМҐ
f395bitcastШНҐ
f396bitcastШОҐ
f397bitcastШПҐ
f398bitcastШРҐ
f399bitcastШСҐ
f400bitcastШТҐ
f401bitcastШУҐ
f402bitcastШФҐ
f403bitcastШХҐ
f404bitcastШЦҐ
f405bitcastШЧҐ
f406bitcastШШҐ
f407bitcastШЩҐ
f408bitcastШЪҐ
f409bitcastШЫҐ
f410bitcastШЬҐ
f411bitcastШЭҐ
f412bitcastШЮҐ
f413bitcastШЯҐ
f414bitcastШ†Ґ
f415bitcastШ°Ґ
f416bitcastШҐҐ
f417bitcastШ£Ґ
f418bitcastШ§Ґ
f419bitcastШ•Ґ
f420bitcastШ¶Ґ
f421bitcastШІҐ
f422bitcastШ®Ґ
f423bitcastШ©Ґ
f424bitcastШ™Ґ
f425bitcastШЂҐ
f426bitcastШђҐ
f427bitcastШ≠Ґ
f428bitcastШЃҐ
f429bitcastШѓҐ
f430bitcastШ∞Ґ
f431bitcastШ±Ґ
f432bitcastШ≤Ґ
f433bitcastШ≥Ґ
f434bitcastШіҐ
f435bitcastШµҐ
f436bitcastШґҐ
f437bitcastШЈҐ
f438bitcastШЄҐ
f439bitcastШєҐ
f440bitcastШЇҐ
f441bitcastШїҐ
f442bitcastШЉҐ
f443bitcastШљҐ
f444bitcastШЊҐ
f445bitcastШњҐ
f446bitcastШјҐ
f447bitcastШЅҐ
f448bitcastШ¬Ґ
f449bitcastШ√Ґ
f450bitcastШƒҐ
f451bitcastШ≈Ґ
f452bitcastШ∆Ґ
f453bitcastШ«Ґ
f454bitcastШ»Ґ
f455bitcastШ…Ґ
f456bitcastШ Ґ
f457bitcastШЋҐ
f458bitcastШћҐ
f459bitcastШЌҐ
f460bitcastШќҐ
f461bitcastШѕҐ
f462bitcastШ–Ґ
f463bitcastШ—Ґ
f464bitcastШ“Ґ
f465bitcastШ”Ґ
f466bitcastШ‘Ґ
f467bitcastШ’Ґ
f468bitcastШ÷Ґ
f469bitcastШ„Ґ
f470bitcastШЎҐ
f471bitcastШўҐ
f472bitcastШЏҐ
f473bitcastШџҐ
f474bitcastШ№Ґ
f475bitcastШЁҐ
f476bitcastШёҐ
f477bitcastШяҐ
f478bitcastШаҐ
f479bitcastШбҐ
f480bitcastШвҐ
f481bitcastШгҐ
f482bitcastШдҐ
f483bitcastШеҐ
f484bitcastШжҐ
f485bitcastШзҐ
f486bitcastШиҐ
f487bitcastШйҐ
f488bitcastШкҐ
f489bitcastШлҐ
f490bitcastШмҐ
f491bitcastШнҐ
f492bitcastШоҐ
f493bitcastШпҐ
f494bitcastШрҐ
f495bitcastШсҐ
f496bitcastШтҐ
f497bitcastШуҐ
f498bitcastШфҐ
f499bitcastШхҐ
f500bitcastШцҐ
f501bitcastШчҐ
f502bitcastШшҐ
f503bitcastШщҐ
f504bitcastШъҐ
f505bitcastШыҐ
f506bitcastШьҐ
f507bitcastШэҐ
f508bitcastШюҐ
f509bitcastШ€Ґ
f510bitcastШАҐ
f511bitcastШБҐ
f512bitcastШВҐ
f513bitcastШГҐ
f514bitcastШДҐ
f515bitcastШЕҐ
f516bitcastШЖҐ
f517bitcastШЗҐ
f518bitcastШИҐ
f519bitcastШЙҐ
f520bitcastШКҐ
f521bitcastШЛҐ
f522bitcastШМҐ
f523bitcastШНҐ
f524bitcastШОҐ
f525bitcastШПҐ
f526bitcastШРҐ
f527bitcastШСҐ
f528bitcastШТҐ
f529bitcastШУҐ
f530bitcastШФҐ
f531bitcastШХҐ
f532bitcastШЦҐ
f533bitcastШЧҐ
f534bitcastШШҐ
f535bitcastШЩҐ
f536bitcastШЪҐ
f537bitcastШЫҐ
f538bitcastШЬҐ
f539bitcastШЭҐ
f540bitcastШЮҐ
f541bitcastШЯҐ
f542bitcastШ†Ґ
f543bitcastШ°Ґ
f544bitcastШҐҐ
f545bitcastШ£Ґ
f546bitcastШ§Ґ
f547bitcastШ•Ґ
f548bitcastШ¶Ґ
f549bitcastШІҐ
f550bitcastШ®Ґ
f551bitcastШ©Ґ
f552bitcastШ™Ґ
f553bitcastШЂҐ
f554bitcastШђҐ
f555bitcastШ≠Ґ
f556bitcastШЃҐ
f557bitcastШѓҐ
f558bitcastШ∞Ґ
f559bitcastШ±Ґ
f560bitcastШ≤Ґ
f561bitcastШ≥Ґ
f562bitcastШіҐ
f563bitcastШµҐ
f564bitcastШґҐ
f565bitcastШЈҐ
f566bitcastШЄҐ
f567bitcastШєҐ
f568bitcastШЇҐ
f569bitcastШїҐ
f570bitcastШЉҐ
f571bitcastШљҐ
f572bitcastШЊҐ
f573bitcastШњҐ
f574bitcastШјҐ
f575bitcastШЅҐ
f576bitcastШ¬Ґ
f577bitcastШ√Ґ
f578bitcastШƒҐ
f579bitcastШ≈Ґ
f580bitcastШ∆Ґ
f581bitcastШ«Ґ
f582bitcastШ»Ґ
f583bitcastШ…Ґ
f584bitcastШ Ґ
f585bitcastШЋҐ
f586bitcastШћҐ
f587bitcastШЌҐ
f588bitcastШќҐ
f589bitcastШѕҐ
f590bitcastШ–Ґ
f591bitcastШ—Ґ
f592bitcastШ“Ґ
f593bitcastШ”Ґ
f594bitcastШ‘Ґ
f595bitcastШ’Ґ
f596bitcastШ÷Ґ
f597bitcastШ„Ґ
f598bitcastШЎҐ
f599bitcastШўҐ
f600bitcastШЏҐ
f601bitcastШџҐ
f602bitcastШ№Ґ
f603bitcastШЁҐ
f604bitcastШёҐ
f605bitcastШяҐ
f606bitcastШаҐ
f607bitcastШбҐ
f608bitcastШвҐ
f609bitcastШгҐ
f610bitcastШдҐ
f611bitcastШеҐ
f612bitcastШжҐ
f613bitcastШзҐ
f614bitcastШиҐ
f615bitcastШйҐ
f616bitcastШкҐ
f617bitcastШлҐ
f618bitcastШмҐ
f619bitcastШнҐ
f620bitcastШоҐ
f621bitcastШпҐ
f622bitcastШрҐ
f623bitcastШсҐ
f624bitcastШтҐ
f625bitcastШуҐ
f626bitcastШфҐ
f627bitcastШхҐ
f628bitcastШцҐ
f629bitcastШчҐ
f630bitcastШшҐ
f631bitcastШщҐ
f632bitcastШъҐ
f633bitcastШыҐ
f634bitcastШьҐ
f635bitcastШэҐ
f636bitcastШюҐ
f637bitcastШ€Ґ
f638bitcastШАҐ
f639bitcastШБҐ
f640bitcastШВҐ
f641bitcastШГҐ
f642bitcastШДҐ
f643bitcastШЕҐ
f644bitcastШЖҐ
f645bitcastШЗҐ
f646bitcastШИҐ
f647bitcastШЙҐ
f648bitcastШКҐ
f649bitcastШЛҐ
f650bitcastШМҐ
f651bitcastШНҐ
f652bitcastШОҐ
f653bitcastШПҐ
f654bitcastШРҐ
f655bitcastШСҐ
f656bitcastШТҐ
f657bitcastШУҐ
f658bitcastШФҐ
f659bitcastШХҐ
f660bitcastШЦҐ
f661bitcastШЧҐ
f662bitcastШШҐ
f663bitcastШЩҐ
f664bitcastШЪҐ
f665bitcastШЫҐ
f666bitcastШЬҐ
f667bitcastШЭҐ
f668bitcastШЮҐ
f669bitcastШЯҐ
f670bitcastШ†Ґ
f671bitcastШ°Ґ
f672bitcastШҐҐ
f673bitcastШ£Ґ
f674bitcastШ§Ґ
f675bitcastШ•Ґ
f676bitcastШ¶Ґ
f677bitcastШІҐ
f678bitcastШ®Ґ
f679bitcastШ©Ґ
f680bitcastШ™Ґ
f681bitcastШЂҐ
f682bitcastШђҐ
f683bitcastШ≠Ґ
f684bitcastШЃҐ
f685bitcastШѓҐ
f686bitcastШ∞Ґ
f687bitcastШ±Ґ
f688bitcastШ≤Ґ
f689bitcastШ≥Ґ
f690bitcastШіҐ
f691bitcastШµҐ
f692bitcastШґҐ
f693bitcastШЈҐ
f694bitcastШЄҐ
f695bitcastШєҐ
f696bitcastШЇҐ
f697bitcastШїҐ
f698bitcastШЉҐ
f699bitcastШљҐ
f700bitcastШЊҐ
f701bitcastШњҐ
f702bitcastШјҐ
f703bitcastШЅҐ
f704bitcastШ¬Ґ
f705bitcastШ√Ґ
f706bitcastШƒҐ
f707bitcastШ≈Ґ
f708bitcastШ∆Ґ
f709bitcastШ«Ґ
f710bitcastШ»Ґ
f711bitcastШ…Ґ
f712bitcastШ Ґ
f713bitcastШЋҐ
f714bitcastШћҐ
f715bitcastШЌҐ
f716bitcastШќҐ
f717bitcastШѕҐ
f718bitcastШ–Ґ
f719bitcastШ—Ґ
f720bitcastШ“Ґ
f721bitcastШ”Ґ
f722bitcastШ‘Ґ
f723bitcastШ’Ґ
f724bitcastШ÷Ґ
f725bitcastШ„Ґ
f726bitcastШЎҐ
f727bitcastШўҐ
f728bitcastШЏҐ
f729bitcastШџҐ
f730bitcastШ№Ґ
f731bitcastШЁҐ
f732bitcastШёҐ
f733bitcastШяҐ
f734bitcastШаҐ
f735bitcastШбҐ
f736bitcastШвҐ
f737bitcastШгҐ
f738bitcastШдҐ
f739bitcastШеҐ
f740bitcastШжҐ
f741bitcastШзҐ
f742bitcastШиҐ
f743bitcastШйҐ
f744bitcastШкҐ
f745bitcastШлҐ
f746bitcastШмҐ
f747bitcastШнҐ
f748bitcastШоҐ
f749bitcastШпҐ
f750bitcastШрҐ
f751bitcastШсҐ
f752bitcastШтҐ
f753bitcastШуҐ
f754bitcastШфҐ
f755bitcastШхҐ
f756bitcastШцҐ
f757bitcastШчҐ
f758bitcastШшҐ
f759bitcastШщҐ
f760bitcastШъҐ
f761bitcastШыҐ
f762bitcastШьҐ
f763bitcastШэҐ
f764bitcastШюҐ
f765bitcastШ€Ґ
f766bitcastШАҐ
f767bitcastШБҐ
f768bitcastШВҐ
f769bitcastШГҐ
f770bitcastШДҐ
f771bitcastШЕҐ
f772bitcastШЖҐ
f773bitcastШЗҐ
f774bitcastШИҐ
f775bitcastШЙҐ
f776bitcastШКҐ
f777bitcastШЛҐ
f778bitcastШМҐ
f779bitcastШНҐ
f780bitcastШОҐ
f781bitcastШПҐ
f782bitcastШРҐ
f783bitcastШСҐ
f784bitcastШТҐ
f785bitcastШУҐ
f786bitcastШФҐ
f787bitcastШХҐ
f788bitcastШЦҐ
f789bitcastШЧҐ
f790bitcastШШҐ
f791bitcastШЩҐ
f792bitcastШЪҐ
f793bitcastШЫҐ
f794bitcastШЬҐ
f795bitcastШЭҐ
f796bitcastШЮҐ
f797bitcastШЯҐ
f798bitcastШ†Ґ
f799bitcastШ°Ґ
f800bitcastШҐҐ
f801bitcastШ£Ґ
f802bitcastШ§Ґ
f803bitcastШ•Ґ
f804bitcastШ¶Ґ
f805bitcastШІҐ
f806bitcastШ®Ґ
f807bitcastШ©Ґ
f808bitcastШ™Ґ
f809bitcastШЂҐ
f810bitcastШђҐ
f811bitcastШ≠Ґ
f812bitcastШЃҐ
f813bitcastШѓҐ
f814bitcastШ∞Ґ
f815bitcastШ±Ґ
f816bitcastШ≤Ґ
f817bitcastШ≥Ґ
f818bitcastШіҐ
f819bitcastШµҐ
f820bitcastШґҐ
f821bitcastШЈҐ
f822bitcastШЄҐ
f823bitcastШєҐ
f824bitcastШЇҐ
f825bitcastШїҐ
f826bitcastШЉҐ
f827bitcastШљҐ
f828bitcastШЊҐ
f829bitcastШњҐ
f830bitcastШјҐ
f831bitcastШЅҐ
f832bitcastШ¬Ґ
f833bitcastШ√Ґ
f834bitcastШƒҐ
f835bitcastШ≈Ґ
f836bitcastШ∆Ґ
f837bitcastШ«Ґ
f838bitcastШ»Ґ
f839bitcastШ…Ґ
f840bitcastШ Ґ
f841bitcastШЋҐ
f842bitcastШћҐ
f843bitcastШЌҐ
f844bitcastШќҐ
f845bitcastШѕҐ
f846bitcastШ–Ґ
f847bitcastШ—Ґ
f848bitcastШ“Ґ
f849bitcastШ”Ґ
f850bitcastШ‘Ґ
f851bitcastШ’Ґ
f852bitcastШ÷Ґ
f853bitcastШ„Ґ
f854bitcastШЎҐ
f855bitcastШўҐ
f856bitcastШЏҐ
f857bitcastШџҐ
f858bitcastШ№Ґ
f859bitcastШЁҐ
f860bitcastШёҐ
f861bitcastШяҐ
f862bitcastШаҐ
f863bitcastШбҐ
f864bitcastШвҐ
f865bitcastШгҐ
f866bitcastШдҐ
f867bitcastШеҐ
f868bitcastШжҐ
f869bitcastШзҐ
f870bitcastШиҐ
f871bitcastШйҐ
f872bitcastШкҐ
f873bitcastШлҐ
f874bitcastШмҐ
f875bitcastШнҐ
f876bitcastШоҐ
f877bitcastШпҐ
f878bitcastШрҐ
f879bitcastШсҐ
f880bitcastШтҐ
f881bitcastШуҐ
f882bitcastШфҐ
f883bitcastШхҐ
f884bitcastШцҐ
f885bitcastШчҐ
f886bitcastШшҐ
f887bitcastШщҐ
f888bitcastШъҐ
f889bitcastШыҐ
f890bitcastШьҐ
f891bitcastШэҐ
f892bitcastШюҐ
f893bitcastШ€Ґ
f894bitcastШАҐ
f895bitcastШБҐ
f896bitcastШВҐ
f897bitcastШГҐ
f898bitcastШДҐ
f899bitcastШЕҐ
f900bitcastШЖҐ
f901bitcastШЗҐ
f902bitcastШИҐ
f903bitcastШЙҐ
f904bitcastШКҐ
f905bitcastШЛҐ
f906bitcastШМҐ
f907bitcastШНҐ
f908bitcastШОҐ
f909bitcastШПҐ
f910bitcastШРҐ
f911bitcastШСҐ
f912bitcastШТҐ
f913bitcastШУҐ
f914bitcastШФҐ
f915bitcastШХҐ
f916bitcastШЦҐ
f917bitcastШЧҐ
f918bitcastШШҐ
f919bitcastШЩҐ
f920bitcastШЪҐ
f921bitcastШЫҐ
f922bitcastШЬҐ
f923bitcastШЭҐ
f924bitcastШЮҐ
f925bitcastШЯҐ
f926bitcastШ†Ґ
f927bitcastШ°Ґ
f928bitcastШҐҐ
f929bitcastШ£Ґ
f930bitcastШ§Ґ
f931bitcastШ•Ґ
f932bitcastШ¶Ґ
f933bitcastШІҐ
f934bitcastШ®Ґ
f935bitcastШ©Ґ
f936bitcastШ™Ґ
f937bitcastШЂҐ
f938bitcastШђҐ
f939bitcastШ≠Ґ
f940bitcastШЃҐ
f941bitcastШѓҐ
f942bitcastШ∞Ґ
f943bitcastШ±Ґ
f944bitcastШ≤Ґ
f945bitcastШ≥Ґ
f946bitcastШіҐ
f947bitcastШµҐ
f948bitcastШґҐ
f949bitcastШЈҐ
f950bitcastШЄҐ
f951bitcastШєҐ
f952bitcastШЇҐ
f953bitcastШїҐ
f954bitcastШЉҐ
f955bitcastШљҐ
f956bitcastШЊҐ
f957bitcastШњҐ
f958bitcastШјҐ
f959bitcastШЅҐ
f960bitcastШ¬Ґ
f961bitcastШ√Ґ
f962bitcastШƒҐ
f963bitcastШ≈Ґ
f964bitcastШ∆Ґ
f965bitcastШ«Ґ
f966bitcastШ»Ґ
f967bitcastШ…Ґ
f968bitcastШ Ґ
f969bitcastШЋҐ
f970bitcastШћҐ
f971bitcastШЌҐ
f972bitcastШќҐ
f973bitcastШѕҐ
f974bitcastШ–Ґ
f975bitcastШ—Ґ
f976bitcastШ“Ґ
f977bitcastШ”Ґ
f978bitcastШ‘Ґ
f979bitcastШ’Ґ
f980bitcastШ÷Ґ
f981bitcastШ„Ґ
f982bitcastШЎҐ
f983bitcastШўҐ
f984bitcastШЏҐ
f985bitcastШџҐ
f986bitcastШ№Ґ
f987bitcastШЁҐ
f988bitcastШёҐ
f989bitcastШяҐ
f990bitcastШаҐ
f991bitcastШбҐ
f992bitcastШвҐ
f993bitcastШгҐ
f994bitcastШдҐ
f995bitcastШеҐ
f996bitcastШжҐ
f997bitcastШзҐ
f998bitcastШиҐ
f999bitcastШйҐ
f1000bitcastШкҐ
f1001bitcastШлҐ
f1002bitcastШмҐ
f1003bitcastШнҐ
f1004bitcastШоҐ
f1005bitcastШпҐ
f1006bitcastШрҐ
f1007bitcastШсҐ
f1008bitcastШтҐ
f1009bitcastШуҐ
f1010bitcastШфҐ
f1011bitcastШхҐ
f1012bitcastШцҐ
f1013bitcastШчҐ
f1014bitcastШшҐ
f1015bitcastШщҐ
f1016bitcastШъҐ
f1017bitcastШыҐ
f1018bitcastШьҐ
f1019bitcastШэҐ
f1020bitcastШюҐ
f1021bitcastШ€Ґ
f1022bitcastШАҐ
f1023bitcastШБҐ
f1024bitcastШВҐ
f1025bitcastШГҐ
f1026bitcastШДҐ
f1027bitcastШЕҐ
f1028bitcastШЖҐ
f1029bitcastШЗҐ
f1030bitcastШИҐ
f1031bitcastШЙҐ
f1032bitcastШКҐ
f1033bitcastШЛҐ
f1034bitcastШМҐ
f1035bitcastШНҐ
f1036bitcastШОҐ
f1037bitcastШПҐ
f1038bitcastШРҐ
f1039bitcastШСҐ
f1040bitcastШТҐ
f1041bitcastШУҐ
f1042bitcastШФҐ
f1043bitcastШХҐ
f1044bitcastШЦҐ
f1045bitcastШЧҐ
f1046bitcastШШҐ
f1047bitcastШЩҐ
f1048bitcastШЪҐ
f1049bitcastШЫҐ
f1050bitcastШЬҐ
f1051bitcastШЭҐ
f1052bitcastШЮҐ
f1053bitcastШЯҐ
f1054bitcastШ†Ґ
f1055bitcastШ°Ґ
f1056bitcastШҐҐ
f1057bitcastШ£Ґ
f1058bitcastШ§Ґ
f1059bitcastШ•Ґ
f1060bitcastШ¶Ґ
f1061bitcastШІҐ
f1062bitcastШ®Ґ
f1063bitcastШ©Ґ
f1064bitcastШ™Ґ
f1065bitcastШЂҐ
f1066bitcastШђҐ
f1067bitcastШ≠Ґ
f1068bitcastШЃҐ
f1069bitcastШѓҐ
f1070bitcastШ∞Ґ
f1071bitcastШ±Ґ
f1072bitcastШ≤Ґ
f1073bitcastШ≥Ґ
f1074bitcastШіҐ
f1075bitcastШµҐ
f1076bitcastШґҐ
f1077bitcastШЈҐ
f1078bitcastШЄҐ
f1079bitcastШєҐ
f1080bitcastШЇҐ
f1081bitcastШїҐ
f1082bitcastШЉҐ
f1083bitcastШљҐ
f1084bitcastШЊҐ
f1085bitcastШњҐ
f1086bitcastШјҐ
f1087bitcastШЅҐ
f1088bitcastШ¬Ґ
f1089bitcastШ√Ґ
f1090bitcastШƒҐ
f1091bitcastШ≈Ґ
f1092bitcastШ∆Ґ
f1093bitcastШ«Ґ
f1094bitcastШ»Ґ
f1095bitcastШ…Ґ
f1096bitcastШ Ґ
f1097bitcastШЋҐ
f1098bitcastШћҐ
f1099bitcastШЌҐ
f1100bitcastШќҐ
f1101bitcastШѕҐ
f1102bitcastШ–Ґ
f1103bitcastШ—Ґ
f1104bitcastШ“Ґ
f1105bitcastШ”Ґ
f1106bitcastШ‘Ґ
f1107bitcastШ’Ґ
f1108bitcastШ÷Ґ
f1109bitcastШ„Ґ
f1110bitcastШЎҐ
f1111bitcastШўҐ
f1112bitcastШЏҐ
f1113bitcastШџҐ
f1114bitcastШ№Ґ
f1115bitcastШЁҐ
f1116bitcastШёҐ
f1117bitcastШяҐ
f1118bitcastШаҐ
f1119bitcastШбҐ
f1120bitcastШвҐ
f1121bitcastШгҐ
f1122bitcastШдҐ
f1123bitcastШеҐ
f1124bitcastШжҐ
f1125bitcastШзҐ
f1126bitcastШиҐ
f1127bitcastШйҐ
f1128bitcastШкҐ
f1129bitcastШлҐ
f1130bitcastШмҐ
f1131bitcastШнҐ
f1132bitcastШоҐ
f1133bitcastШпҐ
f1134bitcastШрҐ
f1135bitcastШсҐ
f1136bitcastШтҐ
f1137bitcastШуҐ
f1138bitcastШфҐ
f1139bitcastШхҐ
f1140bitcastШцҐ
f1141bitcastШчҐ
f1142bitcastШшҐ
f1143bitcastШщҐ
f1144bitcastШъҐ
f1145bitcastШыҐ
f1146bitcastШьҐ
f1147bitcastШэҐ
f1148bitcastШюҐ
f1149bitcastШ€Ґ
f1150bitcastША	Ґ
f1151bitcastШБ	Ґ
f1152bitcastШВ	Ґ
f1153bitcastШГ	Ґ
f1154bitcastШД	Ґ
f1155bitcastШЕ	Ґ
f1156bitcastШЖ	Ґ
f1157bitcastШЗ	Ґ
f1158bitcastШИ	Ґ
f1159bitcastШЙ	Ґ
f1160bitcastШК	Ґ
f1161bitcastШЛ	Ґ
f1162bitcastШМ	Ґ
f1163bitcastШН	Ґ
f1164bitcastШО	Ґ
f1165bitcastШП	Ґ
f1166bitcastШР	Ґ
f1167bitcastШС	Ґ
f1168bitcastШТ	Ґ
f1169bitcastШУ	Ґ
f1170bitcastШФ	Ґ
f1171bitcastШХ	Ґ
f1172bitcastШЦ	Ґ
f1173bitcastШЧ	Ґ
f1174bitcastШШ	Ґ
f1175bitcastШЩ	Ґ
f1176bitcastШЪ	Ґ
f1177bitcastШЫ	Ґ
f1178bitcastШЬ	Ґ
f1179bitcastШЭ	Ґ
f1180bitcastШЮ	Ґ
f1181bitcastШЯ	Ґ
f1182bitcastШ†	Ґ
f1183bitcastШ°	Ґ
f1184bitcastШҐ	Ґ
f1185bitcastШ£	Ґ
f1186bitcastШ§	Ґ
f1187bitcastШ•	Ґ
f1188bitcastШ¶	Ґ
f1189bitcastШІ	Ґ
f1190bitcastШ®	Ґ
f1191bitcastШ©	Ґ
f1192bitcastШ™	Ґ
f1193bitcastШЂ	Ґ
f1194bitcastШђ	Ґ
f1195bitcastШ≠	Ґ
f1196bitcastШЃ	Ґ
f1197bitcastШѓ	Ґ
f1198bitcastШ∞	Ґ
f1199bitcastШ±	Ґ
f1200bitcastШ≤	Ґ
f1201bitcastШ≥	Ґ
f1202bitcastШі	Ґ
f1203bitcastШµ	Ґ
f1204bitcastШґ	Ґ
f1205bitcastШЈ	Ґ
f1206bitcastШЄ	Ґ
f1207bitcastШє	Ґ
f1208bitcastШЇ	Ґ
f1209bitcastШї	Ґ
f1210bitcastШЉ	Ґ
f1211bitcastШљ	Ґ
f1212bitcastШЊ	Ґ
f1213bitcastШњ	Ґ
f1214bitcastШј	Ґ
f1215bitcastШЅ	Ґ
f1216bitcastШ¬	Ґ
f1217bitcastШ√	Ґ
f1218bitcastШƒ	Ґ
f1219bitcastШ≈	Ґ
f1220bitcastШ∆	Ґ
f1221bitcastШ«	Ґ
f1222bitcastШ»	Ґ
f1223bitcastШ…	Ґ
f1224bitcastШ 	Ґ
f1225bitcastШЋ	Ґ
f1226bitcastШћ	Ґ
f1227bitcastШЌ	Ґ
f1228bitcastШќ	Ґ
f1229bitcastШѕ	Ґ
f1230bitcastШ–	Ґ
f1231bitcastШ—	Ґ
f1232bitcastШ“	Ґ
f1233bitcastШ”	Ґ
f1234bitcastШ‘	Ґ
f1235bitcastШ’	Ґ
f1236bitcastШ÷	Ґ
f1237bitcastШ„	Ґ
f1238bitcastШЎ	Ґ
f1239bitcastШў	Ґ
f1240bitcastШЏ	Ґ
f1241bitcastШџ	Ґ
f1242bitcastШ№	Ґ
f1243bitcastШЁ	Ґ
f1244bitcastШё	Ґ
f1245bitcastШя	Ґ
f1246bitcastШа	Ґ
f1247bitcastШб	Ґ
f1248bitcastШв	Ґ
f1249bitcastШг	Ґ
f1250bitcastШд	Ґ
f1251bitcastШе	Ґ
f1252bitcastШж	Ґ
f1253bitcastШз	Ґ
f1254bitcastШи	Ґ
f1255bitcastШй	Ґ
f1256bitcastШк	Ґ
f1257bitcastШл	Ґ
f1258bitcastШм	Ґ
f1259bitcastШн	Ґ
f1260bitcastШо	Ґ
f1261bitcastШп	Ґ
f1262bitcastШр	Ґ
f1263bitcastШс	Ґ
f1264bitcastШт	Ґ
f1265bitcastШу	Ґ
f1266bitcastШф	Ґ
f1267bitcastШх	Ґ
f1268bitcastШц	Ґ
f1269bitcastШч	Ґ
f1270bitcastШш	Ґ
f1271bitcastШщ	Ґ
f1272bitcastШъ	Ґ
f1273bitcastШы	Ґ
f1274bitcastШь	Ґ
f1275bitcastШэ	Ґ
f1276bitcastШю	Ґ
f1277bitcastШ€	Ґ
f1278bitcastША
Ґ
f1279bitcastШБ
Ґ
f1280bitcastШВ
Ґ
f1281bitcastШГ
Ґ
f1282bitcastШД
Ґ
f1283bitcastШЕ
Ґ
f1284bitcastШЖ
Ґ
f1285bitcastШЗ
Ґ
f1286bitcastШИ
Ґ
f1287bitcastШЙ
Ґ
f1288bitcastШК
Ґ
f1289bitcastШЛ
Ґ
f1290bitcastШМ
Ґ
f1291bitcastШН
Ґ
f1292bitcastШО
Ґ
f1293bitcastШП
Ґ
f1294bitcastШР
Ґ
f1295bitcastШС
Ґ
f1296bitcastШТ
Ґ
f1297bitcastШУ
Ґ
f1298bitcastШФ
Ґ
f1299bitcastШХ
Ґ
f1300bitcastШЦ
Ґ
f1301bitcastШЧ
Ґ
f1302bitcastШШ
Ґ
f1303bitcastШЩ
Ґ
f1304bitcastШЪ
Ґ
f1305bitcastШЫ
Ґ
f1306bitcastШЬ
Ґ
f1307bitcastШЭ
Ґ
f1308bitcastШЮ
Ґ
f1309bitcastШЯ
Ґ
f1310bitcastШ†
Ґ
f1311bitcastШ°
Ґ
f1312bitcastШҐ
Ґ
f1313bitcastШ£
Ґ
f1314bitcastШ§
Ґ
f1315bitcastШ•
Ґ
f1316bitcastШ¶
Ґ
f1317bitcastШІ
Ґ
f1318bitcastШ®
Ґ
f1319bitcastШ©
Ґ
f1320bitcastШ™
Ґ
f1321bitcastШЂ
Ґ
f1322bitcastШђ
Ґ
f1323bitcastШ≠
Ґ
f1324bitcastШЃ
Ґ
f1325bitcastШѓ
Ґ
f1326bitcastШ∞
Ґ
f1327bitcastШ±
Ґ
f1328bitcastШ≤
Ґ
f1329bitcastШ≥
Ґ
f1330bitcastШі
Ґ
f1331bitcastШµ
Ґ
f1332bitcastШґ
Ґ
f1333bitcastШЈ
Ґ
f1334bitcastШЄ
Ґ
f1335bitcastШє
Ґ
f1336bitcastШЇ
Ґ
f1337bitcastШї
Ґ
f1338bitcastШЉ
Ґ
f1339bitcastШљ
Ґ
f1340bitcastШЊ
Ґ
f1341bitcastШњ
Ґ
f1342bitcastШј
Ґ
f1343bitcastШЅ
Ґ
f1344bitcastШ¬
Ґ
f1345bitcastШ√
Ґ
f1346bitcastШƒ
Ґ
f1347bitcastШ≈
Ґ
f1348bitcastШ∆
Ґ
f1349bitcastШ«
Ґ
f1350bitcastШ»
Ґ
f1351bitcastШ…
Ґ
f1352bitcastШ 
Ґ
f1353bitcastШЋ
Ґ
f1354bitcastШћ
Ґ
f1355bitcastШЌ
Ґ
f1356bitcastШќ
Ґ
f1357bitcastШѕ
Ґ
f1358bitcastШ–
Ґ
f1359bitcastШ—
Ґ
f1360bitcastШ“
Ґ
f1361bitcastШ”
Ґ
f1362bitcastШ‘
Ґ
f1363bitcastШ’
Ґ
f1364bitcastШ÷
Ґ
f1365bitcastШ„
Ґ
f1366bitcastШЎ
Ґ
f1367bitcastШў
Ґ
f1368bitcastШЏ
Ґ
f1369bitcastШџ
Ґ
f1370bitcastШ№
Ґ
f1371bitcastШЁ
Ґ
f1372bitcastШё
Ґ
f1373bitcastШя
Ґ
f1374bitcastШа
Ґ
f1375bitcastШб
Ґ
f1376bitcastШв
Ґ
f1377bitcastШг
Ґ
f1378bitcastШд
Ґ
f1379bitcastШе
Ґ
f1380bitcastШж
Ґ
f1381bitcastШз
Ґ
f1382bitcastШи
Ґ
f1383bitcastШй
Ґ
f1384bitcastШк
Ґ
f1385bitcastШл
Ґ
f1386bitcastШм
Ґ
f1387bitcastШн
Ґ
f1388bitcastШо
Ґ
f1389bitcastШп
Ґ
f1390bitcastШр
Ґ
f1391bitcastШс
Ґ
f1392bitcastШт
Ґ
f1393bitcastШу
Ґ
f1394bitcastШф
Ґ
f1395bitcastШх
Ґ
f1396bitcastШц
Ґ
f1397bitcastШч
Ґ
f1398bitcastШш
Ґ
f1399bitcastШщ
Ґ
f1400bitcastШъ
Ґ
f1401bitcastШы
Ґ
f1402bitcastШь
Ґ
f1403bitcastШэ
Ґ
f1404bitcastШю
Ґ
f1405bitcastШ€
Ґ
f1406bitcastШАҐ
f1407bitcastШБҐ
f1408bitcastШВҐ
f1409bitcastШГҐ
f1410bitcastШДҐ
f1411bitcastШЕҐ
f1412bitcastШЖҐ
f1413bitcastШЗҐ
f1414bitcastШИҐ
f1415bitcastШЙҐ
f1416bitcastШКҐ
f1417bitcastШЛҐ
f1418bitcastШМҐ
f1419bitcastШНҐ
f1420bitcastШОҐ
f1421bitcastШПҐ
f1422bitcastШРҐ
f1423bitcastШСҐ
f1424bitcastШТҐ
f1425bitcastШУҐ
f1426bitcastШФҐ
f1427bitcastШХҐ
f1428bitcastШЦҐ
f1429bitcastШЧҐ
f1430bitcastШШҐ
f1431bitcastШЩҐ
f1432bitcastШЪҐ
f1433bitcastШЫҐ
f1434bitcastШЬҐ
f1435bitcastШЭҐ
f1436bitcastШЮҐ
f1437bitcastШЯҐ
f1438bitcastШ†Ґ
f1439bitcastШ°Ґ
f1440bitcastШҐҐ
f1441bitcastШ£Ґ
f1442bitcastШ§Ґ
f1443bitcastШ•Ґ
f1444bitcastШ¶Ґ
f1445bitcastШІҐ
f1446bitcastШ®Ґ
f1447bitcastШ©Ґ
f1448bitcastШ™Ґ
f1449bitcastШЂҐ
f1450bitcastШђҐ
f1451bitcastШ≠Ґ
f1452bitcastШЃҐ
f1453bitcastШѓҐ
f1454bitcastШ∞Ґ
f1455bitcastШ±Ґ
f1456bitcastШ≤Ґ
f1457bitcastШ≥Ґ
f1458bitcastШіҐ
f1459bitcastШµҐ
f1460bitcastШґҐ
f1461bitcastШЈҐ
f1462bitcastШЄҐ
f1463bitcastШєҐ
f1464bitcastШЇҐ
f1465bitcastШїҐ
f1466bitcastШЉҐ
f1467bitcastШљҐ
f1468bitcastШЊҐ
f1469bitcastШњҐ
f1470bitcastШјҐ
f1471bitcastШЅҐ
f1472bitcastШ¬Ґ
f1473bitcastШ√Ґ
f1474bitcastШƒҐ
f1475bitcastШ≈Ґ
f1476bitcastШ∆Ґ
f1477bitcastШ«Ґ
f1478bitcastШ»Ґ
f1479bitcastШ…Ґ
f1480bitcastШ Ґ
f1481bitcastШЋҐ
f1482bitcastШћҐ
f1483bitcastШЌҐ
f1484bitcastШќҐ
f1485bitcastШѕҐ
f1486bitcastШ–Ґ
f1487bitcastШ—Ґ
f1488bitcastШ“Ґ
f1489bitcastШ”Ґ
f1490bitcastШ‘Ґ
f1491bitcastШ’Ґ
f1492bitcastШ÷Ґ
f1493bitcastШ„Ґ
f1494bitcastШЎҐ
f1495bitcastШўҐ
f1496bitcastШЏҐ
f1497bitcastШџҐ
f1498bitcastШ№Ґ
f1499bitcastШЁҐЏ
ccustom-callвxШёҐЇ	
 !"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\]^_`abcdefghijklmnopqrstuvwxyz{|}~АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ёёяабвгдежзийклмнопрстуфхцчшщъыьэю€АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ёёяабвгдежзийклмнопрстуфхцчшщъыьэю€АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ёёяабвгдежзийклмнопрстуфхцчшщъыьэю€АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ёёяабвгдежзийклмнопрстуфхцчшщъыьэю€АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ёёяабвгдежзийклмнопрстуфхцчшщъыьэю€АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ёёяабвгдежзийклмнопрстуфхцчшщъыьэю€АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ёёяабвгдежзийклмнопрстуфхцчшщъыьэю€АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ёёяабвгдежзийклмнопрстуфхцчшщъыьэю€А	Б	В	Г	Д	Е	Ж	З	И	Й	К	Л	М	Н	О	П	Р	С	Т	У	Ф	Х	Ц	Ч	Ш	Щ	Ъ	Ы	Ь	Э	Ю	Я	†	°	Ґ	£	§	•	¶	І	®	©	™	Ђ	ђ	≠	Ѓ	ѓ	∞	±	≤	≥	і	µ	ґ	Ј	Є	є	Ї	ї	Љ	љ	Њ	њ	ј	Ѕ	¬	√	ƒ	≈	∆	«	»	…	 	Ћ	ћ	Ќ	ќ	ѕ	–	—	“	”	‘	’	÷	„	Ў	ў	Џ	џ	№	Ё	ё	я	а	б	в	г	д	е	ж	з	и	й	к	л	м	н	о	п	р	с	т	у	ф	х	ц	ч	ш	щ	ъ	ы	ь	э	ю	€	А
Б
В
Г
Д
Е
Ж
З
И
Й
К
Л
М
Н
О
П
Р
С
Т
У
Ф
Х
Ц
Ч
Ш
Щ
Ъ
Ы
Ь
Э
Ю
Я
†
°
Ґ
£
§
•
¶
І
®
©
™
Ђ
ђ
≠
Ѓ
ѓ
∞
±
≤
≥
і
µ
ґ
Ј
Є
є
Ї
ї
Љ
љ
Њ
њ
ј
Ѕ
¬
√
ƒ
≈
∆
«
»
…
 
Ћ
ћ
Ќ
ќ
ѕ
–
—
“
”
‘
’
÷
„
Ў
ў
Џ
џ
№
Ё
ё
я
а
б
в
г
д
е
ж
з
и
й
к
л
м
н
о
п
р
с
т
у
ф
х
ц
ч
ш
щ
ъ
ы
ь
э
ю
€
АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ё(0ё0:»
≈ј
љ	
 !"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\]^_`abcdefghijklmnopqrstuvwxyz{|}~АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ёёяабвгдежзийклмнопрстуфхцчшщъыьэю€АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ёёяабвгдежзийклмнопрстуфхцчшщъыьэю€АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ёёяабвгдежзийклмнопрстуфхцчшщъыьэю€АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ёёяабвгдежзийклмнопрстуфхцчшщъыьэю€АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ёёяабвгдежзийклмнопрстуфхцчшщъыьэю€АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ёёяабвгдежзийклмнопрстуфхцчшщъыьэю€АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ёёяабвгдежзийклмнопрстуфхцчшщъыьэю€АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ёёяабвгдежзийклмнопрстуфхцчшщъыьэю€А	Б	В	Г	Д	Е	Ж	З	И	Й	К	Л	М	Н	О	П	Р	С	Т	У	Ф	Х	Ц	Ч	Ш	Щ	Ъ	Ы	Ь	Э	Ю	Я	†	°	Ґ	£	§	•	¶	І	®	©	™	Ђ	ђ	≠	Ѓ	ѓ	∞	±	≤	≥	і	µ	ґ	Ј	Є	є	Ї	ї	Љ	љ	Њ	њ	ј	Ѕ	¬	√	ƒ	≈	∆	«	»	…	 	Ћ	ћ	Ќ	ќ	ѕ	–	—	“	”	‘	’	÷	„	Ў	ў	Џ	џ	№	Ё	ё	я	а	б	в	г	д	е	ж	з	и	й	к	л	м	н	о	п	р	с	т	у	ф	х	ц	ч	ш	щ	ъ	ы	ь	э	ю	€	А
Б
В
Г
Д
Е
Ж
З
И
Й
К
Л
М
Н
О
П
Р
С
Т
У
Ф
Х
Ц
Ч
Ш
Щ
Ъ
Ы
Ь
Э
Ю
Я
†
°
Ґ
£
§
•
¶
І
®
©
™
Ђ
ђ
≠
Ѓ
ѓ
∞
±
≤
≥
і
µ
ґ
Ј
Є
є
Ї
ї
Љ
љ
Њ
њ
ј
Ѕ
¬
√
ƒ
≈
∆
«
»
…
 
Ћ
ћ
Ќ
ќ
ѕ
–
—
“
”
‘
’
÷
„
Ў
ў
Џ
џ
№
Ё
ё
я
а
б
в
г
д
е
ж
з
и
й
к
л
м
н
о
п
р
с
т
у
ф
х
ц
ч
ш
щ
ъ
ы
ь
э
ю
€
АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ†°Ґ£§•¶І®©™Ђђ≠Ѓѓ∞±≤≥іµґЈЄєЇїЉљЊњјЅ¬√ƒ≈∆«»… ЋћЌќѕ–—“”‘’÷„ЎўЏџ№Ёё)
 
	 ё(J
J