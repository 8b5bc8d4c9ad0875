barack obama becomes the fourth american president to receive the nobel peace prize
the american president barack obama will fly into oslo , norway for 26 hours to receive the nobel peace prize , the fourth american president in history to do so .
he will receive a diploma , medal and cheque for 1.4 million dollars for his exceptional efforts to improve global diplomacy and encourage international cooperation , amongst other things .
the head of the white house will be flying into the norwegian city in the morning with his wife michelle and will have a busy schedule .
first , he will visit the nobel institute , where he will have his first meeting with the five committee members who selected him from 172 people and 33 organisations .
the presidential couple then has a meeting scheduled with king harald v and queen sonja of norway .
then , in the afternoon , the visit will culminate in a grand ceremony , at which obama will receive the prestigious award .
he will be the fourth american president to be awarded the prize , and only the third to have received it while actually in office .
the white house has stated that , when he accepts the prize , obama will speak about the war in afghanistan .
the president does not want to skirt around this topic , as he realises that he is accepting the prize as a president whose country is currently at war in two countries .
a few days ago he stepped up the war effort by sending more troops to afghanistan , something that his critics will be stressing .
at the ceremony , obama will also be given a gold medal , a diploma , and a cheque for ten million swedish krona ( around 24 million czech crowns ) .
he intends to donate this money to charity , but hasn 't decided which yet .
their busy schedule will then take the president and his wife to a banquet , which will be attended by the norwegian king and queen as well as the ministerial chairman and another 250 invited guests .
obama has always been reticent in regards to his prize .
he has said , for example , that he feels that he does not wholly deserve it .
he has repeatedly said that the prize isn 't for him , but for everyone who upholds the same values .
right after hearing about it , he described it as a " challenge to take action . "
nature protection officers accused of blackmail
the litoměřice police have accused the chairman of the litoměřice nature protection society civil association of blackmail .
several times during the last year he appealed against certain building permit proceedings , and has then claimed money from investors for retracting the appeal , said litoměřice police spokeswoman alena romová .
the chairman of the litoměřice nature protection society is lubomír studnička .
he is now under arrest and faces up to three years in prison .
recycling containers don 't smell so good in brno
in prague , normal people can sort their beverage bottles , and , in south moravian , villages are recycling containers on every corner .
and in brno ?
there , it will take you a good few minutes to find the right sort of bin .
i don 't mean to imply that garbage isn 't sorted in brno .
but it seems to me that considering we 're the second largest city in the country , the authorities are not showing enough interest in this problem .
brno is falling way behind in its garbage sorting , not only because people here can still only put paper , glass and plastic into these bins , but mostly because of the sheer lack of containers for this kind of waste .
have you ever tried throwing a plastic bottle into a bin in the city centre ?
it 's a real art form , and you need time and steady nerves .
the only place we 've managed to come across is on moravské náměstí , opposite the potrefená husa .
no offence to mr. onderka and his colleagues , but it 's really not good enough .
not to mention that it 's no easy task sorting garbage in other parts of the city .
plenty of my friends don 't bother sorting their garbage .
out of laziness .
it 's just too far to the bin , you see .
i don 't blame them .
after a party , i offered to throw out a few glass and plastic bottles .
but , on kounicova ulice , there were no coloured bins to be seen .
luckily , on the way to the tram , i found the right place .
but it was overflowing with garbage .
come on , this is the centre of brno . isn 't it supposed to look good ?
it should , but ecology and aesthetics don 't seem to interest the brno socialists much .
they prefer to buy the city a new hockey extra league , which puts us to shame all over the country , instead of buying a few more containers and letting us sort other garbage for a cleaner brno .
i 'm glad to see that , after browsing the net for a while , my assumptions are confirmed by official statistics .
figures published by eko kom show that brno really is the worst off in the whole of south moravia .
" paroubek 's " budget takes money for pensions and sick pay
the fact that the left gave extra money to the farmers and civil servants in the face of government opinion means that there might not be enough money in the budget to cover pensions , sick pay , or building society savings .
and also not enough for interest on the national debt or to cover international judicial disputes .
this will bring problems for whoever is in office in the latter half of next year , said the finance minister eduard janota .
when the social democrats and communists raised interest rates for certain groups , they were relying on the fact that the government would loan money for susceptible expenses , pensions , and sick pay . " it 's just a case of postponing the problem , laying a minefield , " says janota .
higher interest has to be paid on loaned money , and , at some point , it has to be paid back .
the state does not have much choice where to find it .
if it doesn 't reduce social benefits or the costs of running the state , it will have to increase taxes .
for all those that the left just handed out money to : firefighters , teachers , farmers .
and later , their children , too .
people don 't have to worry about pensions or sick pay , where 1.8 billion has disappeared from the accounts ; they 'll get them .
although , at the cost of the state falling deeper into debt - next year the treasury won 't just be 163 billion short , but even more .
despite the efforts of minister janota , debt will continue to increase at an ever faster rate , as will interest costs .
the state will need money to cover it , and it 's no longer enough just to slightly bump up vats or reduce maternity benefits , as the government has done in its anti deficit package .
as money has been diverted to several groups of voters , next year there will also be a shortage of five billion for building highways and railways .
these are mostly sections that have been tendered out and are half finished and cannot be redesigned or made any cheaper .
at the most , conserve what isn 't free too .
this means that delaying or halting thirty major building projects and money from european funds is also at risk , warns transport ministry spokesman karel hanzelka .
the čssd has suggested that the deficit be resolved solomon style - it should draw on čez dividends , which are mostly state owned , and use those to top up the transport fund .
the problem is that the level of these dividends is never certain , and they are certainly not a bottomless resource .
last year , 18 billion of čez money went into the budget .
every year , these dividends are used to pay for clearing up ecological damage , topping up the pensions account , or are set aside as a reserve for the upcoming pension reforms .
moreover , according to eu regulations , this trick increases the actual budget deficit to 5.7 percent of gdp .
but this is not the end of these transfers .
the budget is almost three billion shot to cover various damages owed to the victims of communism and crime , to meet the cost of judicial disputes , and even to cover building society savings .
it is still not clear if the state can get by without this money .
it 's a gamble .
if we were to lose an international dispute , we 'd still have to pay , claims janota .
the minister will then have to save money within the resort or , in the worst case scenario , reach into the government 's budget reserve .
the two billion crown state treasury project , which is already underway , is also lacking a hundred million , and what each office is spending can be followed on line .
the first stage will start in january .
if the finance minister can 't find the money elsewhere , the project will have to be aborted and sanctions will be imposed , warns janota .
your next smartphone will run two operating systems
the americans are saying that , in the future , users will be able to switch between different operating systems on their mobile phones at the touch of a button .
the plans revealed so far look promising .
just press one key and in just a few seconds you can switch from windows mobile to android .
this is the goal of the american company vmware , which primarily develops computer virtualisation software .
this will let you have two user profiles at once on the same phone .
you can switch between them or have one for work and one for home .
both of them will run at the same time , says srinivas krishnamurti of vmware in an interview with computer world magazine .
it was presented last november and first demonstrated just a few days ago .
it will go on sale in 2012 .
the virtualisation of smartphones is not science fiction .
vmware has already given reporters a demonstration of a smartphone with two operating systems .
it was a modified n800 with 128 mb of ram , running windows mobile and android at the same time .
the development of new mobile phone technology is in full swing .
vmware is now working with european and american operators to test smartphone virtualisation and the sets should reach customers sometime during 2012 .
lack of snow in mountains causes problems for hoteliers
it 's not only krkonoše ski lift operators who are worried by these bare slopes .
the lack of snow is putting people off booking ski holidays in hotels and guest houses .
this means vacancies are still available in the krkonoše throughout the winter , including christmas and new year 's eve .
we 're getting plenty of visitors to our site .
barack obama becomes the fourth american president to receive the nobel peace prize
the american president barack obama will fly into oslo , norway for 26 hours to receive the nobel peace prize , the fourth american president in history to do so .
he will receive a diploma , medal and cheque for 1.4 million dollars for his exceptional efforts to improve global diplomacy and encourage international cooperation , amongst other things .
the head of the white house will be flying into the norwegian city in the morning with his wife michelle and will have a busy schedule .
first , he will visit the nobel institute , where he will have his first meeting with the five committee members who selected him from 172 people and 33 organisations .
the presidential couple then has a meeting scheduled with king harald v and queen sonja of norway .
then , in the afternoon , the visit will culminate in a grand ceremony , at which obama will receive the prestigious award .
he will be the fourth american president to be awarded the prize , and only the third to have received it while actually in office .
the white house has stated that , when he accepts the prize , obama will speak about the war in afghanistan .
the president does not want to skirt around this topic , as he realises that he is accepting the prize as a president whose country is currently at war in two countries .
a few days ago he stepped up the war effort by sending more troops to afghanistan , something that his critics will be stressing .
at the ceremony , obama will also be given a gold medal , a diploma , and a cheque for ten million swedish krona ( around 24 million czech crowns ) .
he intends to donate this money to charity , but hasn 't decided which yet .
their busy schedule will then take the president and his wife to a banquet , which will be attended by the norwegian king and queen as well as the ministerial chairman and another 250 invited guests .
obama has always been reticent in regards to his prize .
he has said , for example , that he feels that he does not wholly deserve it .
he has repeatedly said that the prize isn 't for him , but for everyone who upholds the same values .
right after hearing about it , he described it as a " challenge to take action . "
nature protection officers accused of blackmail
the litoměřice police have accused the chairman of the litoměřice nature protection society civil association of blackmail .
several times during the last year he appealed against certain building permit proceedings , and has then claimed money from investors for retracting the appeal , said litoměřice police spokeswoman alena romová .
the chairman of the litoměřice nature protection society is lubomír studnička .
he is now under arrest and faces up to three years in prison .
recycling containers don 't smell so good in brno
in prague , normal people can sort their beverage bottles , and , in south moravian , villages are recycling containers on every corner .
and in brno ?
there , it will take you a good few minutes to find the right sort of bin .
i don 't mean to imply that garbage isn 't sorted in brno .
but it seems to me that considering we 're the second largest city in the country , the authorities are not showing enough interest in this problem .
brno is falling way behind in its garbage sorting , not only because people here can still only put paper , glass and plastic into these bins , but mostly because of the sheer lack of containers for this kind of waste .
have you ever tried throwing a plastic bottle into a bin in the city centre ?
it 's a real art form , and you need time and steady nerves .
the only place we 've managed to come across is on moravské náměstí , opposite the potrefená husa .
no offence to mr. onderka and his colleagues , but it 's really not good enough .
not to mention that it 's no easy task sorting garbage in other parts of the city .
plenty of my friends don 't bother sorting their garbage .
out of laziness .
it 's just too far to the bin , you see .
i don 't blame them .
after a party , i offered to throw out a few glass and plastic bottles .
but , on kounicova ulice , there were no coloured bins to be seen .
luckily , on the way to the tram , i found the right place .
but it was overflowing with garbage .
come on , this is the centre of brno . isn 't it supposed to look good ?
it should , but ecology and aesthetics don 't seem to interest the brno socialists much .
they prefer to buy the city a new hockey extra league , which puts us to shame all over the country , instead of buying a few more containers and letting us sort other garbage for a cleaner brno .
i 'm glad to see that , after browsing the net for a while , my assumptions are confirmed by official statistics .
figures published by eko kom show that brno really is the worst off in the whole of south moravia .
" paroubek 's " budget takes money for pensions and sick pay
the fact that the left gave extra money to the farmers and civil servants in the face of government opinion means that there might not be enough money in the budget to cover pensions , sick pay , or building society savings .
and also not enough for interest on the national debt or to cover international judicial disputes .
this will bring problems for whoever is in office in the latter half of next year , said the finance minister eduard janota .
when the social democrats and communists raised interest rates for certain groups , they were relying on the fact that the government would loan money for susceptible expenses , pensions , and sick pay . " it 's just a case of postponing the problem , laying a minefield , " says janota .
higher interest has to be paid on loaned money , and , at some point , it has to be paid back .
the state does not have much choice where to find it .
if it doesn 't reduce social benefits or the costs of running the state , it will have to increase taxes .
for all those that the left just handed out money to : firefighters , teachers , farmers .
and later , their children , too .
people don 't have to worry about pensions or sick pay , where 1.8 billion has disappeared from the accounts ; they 'll get them .
although , at the cost of the state falling deeper into debt - next year the treasury won 't just be 163 billion short , but even more .
despite the efforts of minister janota , debt will continue to increase at an ever faster rate , as will interest costs .
the state will need money to cover it , and it 's no longer enough just to slightly bump up vats or reduce maternity benefits , as the government has done in its anti deficit package .
as money has been diverted to several groups of voters , next year there will also be a shortage of five billion for building highways and railways .
these are mostly sections that have been tendered out and are half finished and cannot be redesigned or made any cheaper .
at the most , conserve what isn 't free too .
this means that delaying or halting thirty major building projects and money from european funds is also at risk , warns transport ministry spokesman karel hanzelka .
the čssd has suggested that the deficit be resolved solomon style - it should draw on čez dividends , which are mostly state owned , and use those to top up the transport fund .
the problem is that the level of these dividends is never certain , and they are certainly not a bottomless resource .
last year , 18 billion of čez money went into the budget .
every year , these dividends are used to pay for clearing up ecological damage , topping up the pensions account , or are set aside as a reserve for the upcoming pension reforms .
moreover , according to eu regulations , this trick increases the actual budget deficit to 5.7 percent of gdp .
but this is not the end of these transfers .
the budget is almost three billion shot to cover various damages owed to the victims of communism and crime , to meet the cost of judicial disputes , and even to cover building society savings .
it is still not clear if the state can get by without this money .
it 's a gamble .
if we were to lose an international dispute , we 'd still have to pay , claims janota .
the minister will then have to save money within the resort or , in the worst case scenario , reach into the government 's budget reserve .
the two billion crown state treasury project , which is already underway , is also lacking a hundred million , and what each office is spending can be followed on line .
the first stage will start in january .
if the finance minister can 't find the money elsewhere , the project will have to be aborted and sanctions will be imposed , warns janota .
your next smartphone will run two operating systems
the americans are saying that , in the future , users will be able to switch between different operating systems on their mobile phones at the touch of a button .
the plans revealed so far look promising .
just press one key and in just a few seconds you can switch from windows mobile to android .
this is the goal of the american company vmware , which primarily develops computer virtualisation software .
this will let you have two user profiles at once on the same phone .
you can switch between them or have one for work and one for home .
both of them will run at the same time , says srinivas krishnamurti of vmware in an interview with computer world magazine .
it was presented last november and first demonstrated just a few days ago .
it will go on sale in 2012 .
the virtualisation of smartphones is not science fiction .
vmware has already given reporters a demonstration of a smartphone with two operating systems .
it was a modified n800 with 128 mb of ram , running windows mobile and android at the same time .
the development of new mobile phone technology is in full swing .
vmware is now working with european and american operators to test smartphone virtualisation and the sets should reach customers sometime during 2012 .
lack of snow in mountains causes problems for hoteliers
it 's not only krkonoše ski lift operators who are worried by these bare slopes .
the lack of snow is putting people off booking ski holidays in hotels and guest houses .
this means vacancies are still available in the krkonoše throughout the winter , including christmas and new year 's eve .
we 're getting plenty of visitors to our site .
