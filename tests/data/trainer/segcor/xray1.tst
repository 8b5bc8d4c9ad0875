<tstset trglang="en" setid="xray" srclang="any">
<doc sysid="xray1" docid="xray-a">
<seg id="1">Barack Obama will be the fourth president to receive the Nobel Peace Prize</seg>
<seg id="2">US President Barack Obama will fly to Oslo in Norway, for 26 hours and be the fourth US President in history to receive the Nobel Peace Prize.</seg>
<seg id="3">The diploma, the coin and the cheque of $1.4 million will be handed over for his extraordinary efforts to strengthen the global diplomacy and cooperation among nations.</seg>
<seg id="4">The head of the White House and his wife Michelle landing in the morning in the Norwegian city and will be a programme.</seg>
<seg id="5">It will first of all to the Nobel Institute, where he will meet for the first time the five members of the Committee who have chosen in October of 172 people and 33 organizations.</seg>
<seg id="6">The planning of the presidential couple then makes an interview with the King of Norway Harald V and Queen Sonja.</seg>
<seg id="7">The visit will be the climax in the afternoon in a solemn ceremony where Obama will receive the prestigious award.</seg>
<seg id="8">It will be the fourth president to receive, but only the third which will be awarded the prize in the very House of the Committee.</seg>
<seg id="9">The White House informed in advance that Obama would discuss the war in Afghanistan at the price.</seg>
<seg id="10">The president does not want to avoid this issue because he is aware that it receives the price being a president who is waging a war in two countries at the moment.</seg>
<seg id="11">It has strengthened the war effort a few days in sending additional troops in Afghanistan, that no criticism will stress.</seg>
<seg id="12">At the ceremony, Obama will also receive a gold medal, a diploma and a cheque for 10 million Swedish kronor) about 1.1 million Euros (.</seg>
<seg id="13">It donation to charity, but it has not yet actually decided which.</seg>
<seg id="14">Its charge will fly then and his wife at a banquet, including, in addition to the King and Queen of Norway, the head of government and 250 other guests.</seg>
<seg id="15">Obama was rather reluctant to the price at the beginning.</seg>
<seg id="16">He mentioned, for example, have the sense not worthy.</seg>
<seg id="17">He also repeated several times that it is not a price for it, but for all those who defend the same values.</seg>
<seg id="18">From the beginning, it said that it would be a “ action ”.</seg>
<seg id="19">A defender of the nature accused of blackmail</seg>
<seg id="20">The Litoměřice police was accused of blackmail the President of the Society association protectors of the nature of Litoměřice.</seg>
<seg id="21">A several times over the last year it was called in to several procedures of construction and sought money from investors for his personal benefit in exchange for the withdrawal of his appeal, said Alena Romová, spokesman for the Litoměřice police.</seg>
<seg id="22">The President of the Society of protectors of the nature of Litoměřice is Lubomír Studnička.</seg>
<seg id="23">It is currently in custody and risk up to three years ' imprisonment.</seg>
<seg id="24">The skips sorting of waste are not the aroma in Brno</seg>
<seg id="25">In Prague everyone can sort his drinks packaging, while in the villages of Moravia South you fall on skips sorting at every street corner.</seg>
<seg id="26">And in Brno?</seg>
<seg id="27">Here, it should be that you take several minutes before finding the skips.</seg>
<seg id="28">I do not mean that we do not trierait no waste in Brno.</seg>
<seg id="29">I have the impression that the councillors of our city, the second largest city, was not enough to this problem.</seg>
<seg id="30">Brno in the stone age of the sorting of waste not only because the citizens can still sort that paper, glass and PVC, but especially given the number of skips dedicated to the waste.</seg>
</doc>
<doc sysid="xray1" docid="xray-b">
<seg id="1">Have you ever tried to lay a plastic bottle in the city centre?</seg>
<seg id="2">This is a science, which requires above all the time and nerves of steel.</seg>
<seg id="3">The only place that I found for the moment, this is the place of Moravia in face of Potrefena Husa.</seg>
<seg id="4">What Mr Onderka and his colleagues do not want to, but it seems to me sacrément shortly.</seg>
<seg id="5">Without talk about the fact that in other areas of the city it is not an easy task.</seg>
<seg id="6">Thus in the end, many of my friends do not sort their waste.</seg>
<seg id="7">The laziness.</seg>
<seg id="8">It is a is actually going on to reach the skips.</seg>
<seg id="9">It does not surprise me.</seg>
<seg id="10">I myself, after a holiday, I have proposed to go lay a few bottles of glass and PVC.</seg>
<seg id="11">Except that I have found no drop of colour street Kounicova.</seg>
<seg id="12">Fortunately I have found the right place to take the tram.</seg>
<seg id="13">That said, the waste in overflowed.</seg>
<seg id="14">That is, after all, the centre of Brno, which is supposed to represent the best the city, not? !</seg>
<seg id="15">It is likely that ecology and so-called esthétisme are not too the Socialists in Brno.</seg>
<seg id="16">They prefer to buy the city a first league hockey which is a disgrace to the city in the country, instead of buying a few additional skips and propose the sorting of more raw materials to a Brno.</seg>
<seg id="17">I am pleased to be able to strengthen my impression with official statistics after dragged a time on the Internet.</seg>
<seg id="18">According to the society EKO-KOM, Brno really is the worst of all the Moravia region of the South.</seg>
<seg id="19">The budget of Paroubek has deprived of the argentaux pension and sick leave</seg>
<seg id="20">After the left has increased, despite the Government's view, the farmers or the staff there may lack the money for pensions, illness or savings housing.</seg>
<seg id="21">but also for the interest on the debt of the State or the international judicial procedures.</seg>
<seg id="22">This will increase the problems of those who will govern in the second half of next year, the Finance Minister Eduard Janota.</seg>
<seg id="23">When the Social Democrats and the Communists, the increase for certain classes, they were based on the fact that the Government would make borrowing costs, pensions or sick leave. ” It is that put the problems later, undermine the ground, " said Janota.</seg>
<seg id="24">must know that on borrowed money interests to pay is higher and the return sooner or later.</seg>
<seg id="25">The State has not actually the choice of where to draw the money.</seg>
<seg id="26">If it is not reduced social aid or its spending, it will have to raise taxes.</seg>
<seg id="27">To all those that the left has increased, firefighters, teachers, farmers.</seg>
<seg id="28">And to their children.</seg>
<seg id="29">The people will and should not fear for their pensions or insurance, including 1.8 billion have disappeared.</seg>
<seg id="30">But at the expense of a greater debt of the State - next year it will not 163 billion in funds, but more.</seg>
</doc>
</tstset>
