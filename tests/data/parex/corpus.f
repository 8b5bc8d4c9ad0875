barack obama will be the fourth president to receive the nobel peace prize
us president barack obama will fly to oslo in norway , for 26 hours and be the fourth us president in history to receive the nobel peace prize .
the diploma , the coin and the cheque of $ 1.4 million will be handed over for his extraordinary efforts to strengthen the global diplomacy and cooperation among nations .
the head of the white house and his wife michelle landing in the morning in the norwegian city and will be a programme .
it will first of all to the nobel institute , where he will meet for the first time the five members of the committee who have chosen in october of 172 people and 33 organizations .
the planning of the presidential couple then makes an interview with the king of norway harald v and queen sonja .
the visit will be the climax in the afternoon in a solemn ceremony where obama will receive the prestigious award .
it will be the fourth president to receive , but only the third which will be awarded the prize in the very house of the committee .
the white house informed in advance that obama would discuss the war in afghanistan at the price .
the president does not want to avoid this issue because he is aware that it receives the price being a president who is waging a war in two countries at the moment .
it has strengthened the war effort a few days in sending additional troops in afghanistan , that no criticism will stress .
at the ceremony , obama will also receive a gold medal , a diploma and a cheque for 10 million swedish kronor ) about 1.1 million euros ( .
it donation to charity , but it has not yet actually decided which .
its charge will fly then and his wife at a banquet , including , in addition to the king and queen of norway , the head of government and 250 other guests .
obama was rather reluctant to the price at the beginning .
he mentioned , for example , have the sense not worthy .
he also repeated several times that it is not a price for it , but for all those who defend the same values .
from the beginning , it said that it would be a " action " .
a defender of the nature accused of blackmail
the litoměřice police was accused of blackmail the president of the society association protectors of the nature of litoměřice .
a several times over the last year it was called in to several procedures of construction and sought money from investors for his personal benefit in exchange for the withdrawal of his appeal , said alena romová , spokesman for the litoměřice police .
the president of the society of protectors of the nature of litoměřice is lubomír studnička .
it is currently in custody and risk up to three years ' imprisonment .
the skips sorting of waste are not the aroma in brno
in prague everyone can sort his drinks packaging , while in the villages of moravia south you fall on skips sorting at every street corner .
and in brno ?
here , it should be that you take several minutes before finding the skips .
i do not mean that we do not trierait no waste in brno .
i have the impression that the councillors of our city , the second largest city , was not enough to this problem .
brno in the stone age of the sorting of waste not only because the citizens can still sort that paper , glass and pvc , but especially given the number of skips dedicated to the waste .
have you ever tried to lay a plastic bottle in the city centre ?
this is a science , which requires above all the time and nerves of steel .
the only place that i found for the moment , this is the place of moravia in face of potrefena husa .
what mr onderka and his colleagues do not want to , but it seems to me sacrément shortly .
without talk about the fact that in other areas of the city it is not an easy task .
thus in the end , many of my friends do not sort their waste .
the laziness .
it is a is actually going on to reach the skips .
it does not surprise me .
i myself , after a holiday , i have proposed to go lay a few bottles of glass and pvc .
except that i have found no drop of colour street kounicova .
fortunately i have found the right place to take the tram .
that said , the waste in overflowed .
that is , after all , the centre of brno , which is supposed to represent the best the city , not ? !
it is likely that ecology and so called esthétisme are not too the socialists in brno .
they prefer to buy the city a first league hockey which is a disgrace to the city in the country , instead of buying a few additional skips and propose the sorting of more raw materials to a brno .
i am pleased to be able to strengthen my impression with official statistics after dragged a time on the internet .
according to the society eko kom , brno really is the worst of all the moravia region of the south .
the budget of paroubek has deprived of the argentaux pension and sick leave
after the left has increased , despite the government 's view , the farmers or the staff there may lack the money for pensions , illness or savings housing .
but also for the interest on the debt of the state or the international judicial procedures .
this will increase the problems of those who will govern in the second half of next year , the finance minister eduard janota .
when the social democrats and the communists , the increase for certain classes , they were based on the fact that the government would make borrowing costs , pensions or sick leave . " it is that put the problems later , undermine the ground , " said janota .
must know that on borrowed money interests to pay is higher and the return sooner or later .
the state has not actually the choice of where to draw the money .
if it is not reduced social aid or its spending , it will have to raise taxes .
to all those that the left has increased , firefighters , teachers , farmers .
and to their children .
the people will and should not fear for their pensions or insurance , including 1.8 billion have disappeared .
but at the expense of a greater debt of the state - next year it will not 163 billion in funds , but more .
despite efforts by the minister janota debt is growing more quickly and with it , the costs associated with interest .
the state is going to need money for the repayer and it is more to slightly increase vat or reduce the maternity leave the government in its package anti déficit .
it will also miss five billion to complete construction of roads and railways because of the transfer money to a few groups of voters .
it is mainly what has already been decided and started that it is not possible to amend the projects to reduce the costs .
all the retain , which is not free .
this means delay or halt 30 major projects , and the removal of european funds is also in danger , according to the warning karel hanzelka , spokesman of the ministry of transport .
the čssd has proposed to resolve the financial deficit very effectively - it will draw from the benefits of čez ) supplier and distributor of electrical energy ( , that the state has in large part and contribute to the fund .
the concern is that the dividend is never certain and that it is in no case of a well without substance .
last year , 18 billion that have been navigués since the čez in the budget .
each year , dividends are used to pay the deletion of environmental damage , to complement the pensions or serve in the pension reform .
furthermore , this gimmick is the real deficit budget of up to 5.7 per cent of gdp according to the rules of the eu .
and that is far from the end of carnival transfers .
the budget for various compensation for victims of communism and crimes , and even savings housing , has fallen by almost three billion .
it is not certain that the state can act without the money .
it is a lottery .
if we lose a procedure , we must in any case the pay , janota .
the minister will then have to save the department or , at worst , reach the budgetary reserve of government .
it also cent million in cash for a two billion , which is expected to follow online what are the costs of each administration .
the first phase will start in january .
if the finance minister no money elsewhere , the project will have to be stopped and sanctions would take place , warns janota .
your next smartphone overcome two operating systems
in the future , americans are a mobile phone that will allow the user to move from a system of exploitation to another pressing one button .
projects that have been proven seem promising .
it is a button and you go to windows mobile to android in seconds .
it is precisely this possibility is the target of american society vmware , which deals primarily with the development of software virtualisation for computers .
we will enable you to manage two user profiles on your mobile phone .
you can alternate between them , you can differentiate in personal and professional
the two will operate in the same time , indicated srinivas krishnamurti society vmware in an interview for the magazine computerworld .
it was introduced in november last year and it has been made a first demonstration a few days ago .
it will be on the market in 2012 .
the virtualisation on the smartphones is no fiction .
vmware has already successfully introduced a test version to journalists , a smartphone equipped with two operating systems .
it is a nokia n800 changed with a ram memory of 128 mb , which served simultaneously systems windows mobile and android mentioned .
the development of new technologies to mobile phones is booming .
society vmware works with the american and european operators to test the virtualisation on the smartphones , and customers should have access to aircraft during 2012 .
the lack of snow in mountain concerns the hotel
the tracks are deserted is not the issue that the operators of ski lifts .
the lack of snow dissuade people to book their holidays to ski in hotels and pensions .
, and it is always possible to find free rooms for all dates in the winter , including christmas and new year .
we have many visits on our website .
barack obama will be the fourth american to receive the nobel peace prize
us president barack obama will fly to oslo in norway , for 26 hours and be the fourth american president in history to receive the nobel peace prize .
the diploma , the coin and the cheque of 1.4 million will be provided for its extraordinary efforts to strengthen global diplomacy and cooperation between nations .
the head of the white house and his wife michelle landing in the morning in the norwegian metropolis and will have a programme .
it will first of all to the nobel , where he will meet for the first time the five members of the committee who have chosen in october of 172 people and 33 organizations .
the planning of the presidential couple plans a meeting with the norway 's king harald v and queen sonja .
the visit will be the climax in the afternoon at a solemn ceremony where obama will receive the prestigious award .
it will be the fourth american to receive , but only the third which will be awarded the price in the very house of the committee .
the white house informed in advance that obama would discuss the war in afghanistan at the surrender of the price .
the president does not want to avoid this issue because it is aware that it receives the price being a president who is waging a war in two countries at present .
it has strengthened the war effort a few days in sending additional troops in afghanistan , that no criticism will stress .
at the ceremony , obama will also receive a gold medal , a diploma and a cheque for 10 million swedish kronor ) about 1.1 million euros ( .
it donation to charity , but it has not yet actually decided which .
its programme which will fly then and his wife at a banquet , including , in more of the king and queen of norway , the head of the government and 250 guests .
obama was rather reluctant at this price .
he mentioned , for example the feeling of not worthy .
he also repeated several times that it is not a price for alone , but for all those who defend the same values .
from the announcement , he said that this would be an " invitation to act " .
a defender of nature accused of blackmail
the police litoměřice was accused of blackmail the president of the society of the protectors of the nature of litoměřice .
a several times over the last year it for several procedures of construction and demanded money from investors for his personal benefit in exchange for the withdrawal of his appeal , said alena romová , police spokesman of litoměřice .
the president of the society of the protectors of the nature of litoměřice is lubomír studnička .
it is currently in custody and risk up to three years imprisonment .
the skips sorting of waste are not the perfume in brno
in prague the sort his drinks packaging , while in the villages of moravia south you fall on skips sorting at every street corner .
and in brno ?
here , it should be that you take several minutes to find the appropriate skips .
i do not mean that we do not trierait no waste in brno .
but i have the impression that the councillors from our town , the second largest city , was not enough to this problem .
brno in the stone age of the sorting of waste not only because the citizens can still sort that paper , glass and pvc , but especially given number of skips dedicated to these wastes .
have you tried to throw a plastic bottle in the city ?
it is a science , which requires most of the time and nerves of steel .
the only place that i found for the moment , this is the place of moravia in the face of potrefena husa .
what mr onderka and his colleagues do not want to , but it seems sacrément shortly .
without speak of the fact that in other areas of the city it is not an easy task .
thus to many of my friends not sort their waste .
for laziness .
ça their one is actually going on to reach the skips .
it does not surprise me .
myself , after a holiday , i have proposed to go lay a few bottles of glass and pvc .
except that i have seen no colour lorry street kounicova .
fortunately i have found the right place to take the tram .
that said , the waste overflowed .
that is , after all , the centre of brno , which is supposed to represent the best city , not ? !
it is likely that ecology and so called esthétisme are not too the socialists of brno .
they prefer to buy the city a first league hockey which is a disgrace to the city throughout the country , instead of buying a few additional skips and propose the sorting of more raw materials for a brno .
i am pleased to be able to strengthen my impression with official statistics after dragging a moment on the internet .
data of society eko kom , brno really is the worst of all the moravia region of the south .
the budget paroubek has removed the argentaux pension and illness
after that the left has increased , despite the opinion of the government , farmers or the staff it may lack money for pensions , illness or savings housing .
but also for the interest on the debt or judicial procedures .
this will increase the problems of those who will govern in the second half of next year , the finance minister eduard janota .
when the social democrats and the communists , the increase for some classes , they rely on the fact that the government will borrow money for sensitive , pensions or sick leave . " it is that put the problems later , undermine the ground , " said janota .
there is on borrowed money interests to pay is higher and that it will return sooner or later .
the state has not actually the choice of where draw money .
if it is not reduced social aid or its expenses , it will have to raise taxes .
to all those that the left has now increased : the firefighters , teachers , farmers .
and to their children .
the people will and should not fear for their pensions or insurance , including 1.8 billion have disappeared .
but at the expense of a greater debt of the state - next year it will not 163 billion in funds , but more .
despite the efforts of the minister janota debt is growing more quickly , and with it the interests .
the state will need money for the repayer and there is more to slightly increase vat or reduce the maternity leave the government in its package anti déficit .
it will also miss five billion to complete the construction of roads and railways because of the transfer of money to some groups of voters .
it is mainly what has already been decided and started which it is not possible to change the projects to reduce the costs .
all the retain , which is not free .
this means delay or halt 30 major projects , and the removal of european funds is also in danger , according to the warning karel hanzelka , spokesman of the ministry of transport .
the čssd has proposed to resolve the financial deficit very cleverly - it will draw from the dividends of the čez ) supplier and distributor of power that the state has largely and contribute to the fund .
the concern is that the dividend is never certain and that there is no case of a well without substance .
last year , 18 billion that have been navigués since the čez in the budget .
each year , dividends are used to pay the deletion of environmental damage , to supplement the accounts of the pensions or serve in the reform of the pensions .
moreover , this gimmick is the real deficit of the budget of up to 5.7 per cent of gdp according to the rules of the eu .
and it is far from the end of the carnival transfers .
the budget for various compensation to the victims of communism and offences , even the savings housing , almost three billion .
it is not certain that the state can act without this money .
it is a lottery .
if we lose a procedure , we must in any way the pay , janota .
the minister will save of the side of the department , or at worst , reaching to the budgetary reserve of the government .
it also lacks one hundred million in cash for a two billion , which must monitor online what are the costs of each administration .
the first phase will start in january .
if the finance minister no money elsewhere , the project will have to be stopped and sanctions would take place , warns janota .
your next smartphone overcome two operating systems
in the future , american consider a mobile phone that will allow the user to move an operating system to another pressing a single button .
the projects that have been proven seem promising .
it is a button and you windows mobile to android in seconds .
it is precisely this possibility is the goal of american society vmware , mainly of the software development of virtualisation for computers .
we will allow you to manage two user profiles on your mobile phone .
you can alternate between them , you can differentiate in personal and professional
the two will work , has indicated srinivas krishnamurti society vmware in an interview for the magazine computerworld .
it was introduced in november last year and was made a first demonstration a few days .
it will be on the market in 2012 .
the virtualisation on smartphones is no fiction .
vmware has already successfully presented a test to journalists , a smartphone with two operating systems .
it is a nokia n800 changed with a ram memory of 128 mb , which served simultaneously systems windows mobile and android mentioned .
the development of new technologies to mobile phones is booming .
society vmware works with european operators and american to test the virtualisation on smartphones , and customers should have access to aircraft during 2012 .
the lack of snow in mountain concerns the hotel
the empty avenues were not a problem that the operators of ski lifts .
the lack of snow dissuade people book their holidays to ski in hotels and pensions .
de , it is always possible to trace chambers free for all dates in winter , including christmas and new year .
we have many visits on our website .
