<tstset trglang="en" setid="xray" srclang="any">
<doc sysid="xray2" docid="xray-a">
<seg id="1">Barack Obama will be the fourth American to receive the Nobel Peace Prize</seg>
<seg id="2">US President Barack Obama will fly to Oslo in Norway, for 26 hours and be the fourth American President in history to receive the Nobel Peace Prize.</seg>
<seg id="3">The diploma, the coin and the cheque of 1.4 million will be provided for its extraordinary efforts to strengthen global diplomacy and cooperation between nations.</seg>
<seg id="4">The head of the White House and his wife Michelle landing in the morning in the Norwegian metropolis and will have a programme.</seg>
<seg id="5">It will first of all to the Nobel, where he will meet for the first time the five members of the Committee who have chosen in October of 172 people and 33 organizations.</seg>
<seg id="6">The planning of the presidential couple plans a meeting with the Norway's King Harald V and Queen Sonja.</seg>
<seg id="7">The visit will be the climax in the afternoon at a solemn ceremony where Obama will receive the prestigious award.</seg>
<seg id="8">It will be the fourth American to receive, but only the third which will be awarded the price in the very House of the Committee.</seg>
<seg id="9">The White House informed in advance that Obama would discuss the war in Afghanistan at the surrender of the price.</seg>
<seg id="10">The president does not want to avoid this issue because it is aware that it receives the price being a president who is waging a war in two countries at present.</seg>
<seg id="11">It has strengthened the war effort a few days in sending additional troops in Afghanistan, that no criticism will stress.</seg>
<seg id="12">At the ceremony, Obama will also receive a gold medal, a diploma and a cheque for 10 million Swedish kronor) about 1.1 million Euros (.</seg>
<seg id="13">It donation to charity, but it has not yet actually decided which.</seg>
<seg id="14">Its programme which will fly then and his wife at a banquet, including, in more of the King and Queen of Norway, the head of the Government and 250 guests.</seg>
<seg id="15">Obama was rather reluctant at this price.</seg>
<seg id="16">He mentioned, for example the feeling of not worthy.</seg>
<seg id="17">He also repeated several times that it is not a price for alone, but for all those who defend the same values.</seg>
<seg id="18">From the announcement, he said that this would be an " invitation to act ”.</seg>
<seg id="19">A defender of nature accused of blackmail</seg>
<seg id="20">The police Litoměřice was accused of blackmail the President of the Society of the protectors of the nature of Litoměřice.</seg>
<seg id="21">A several times over the last year it for several procedures of construction and demanded money from investors for his personal benefit in exchange for the withdrawal of his appeal, said Alena Romová, police spokesman of Litoměřice.</seg>
<seg id="22">The President of the Society of the protectors of the nature of Litoměřice is Lubomír Studnička.</seg>
<seg id="23">It is currently in custody and risk up to three years imprisonment.</seg>
<seg id="24">The skips sorting of waste are not the perfume in Brno</seg>
<seg id="25">In Prague the sort his drinks packaging, while in the villages of Moravia South you fall on skips sorting at every street corner.</seg>
<seg id="26">And in Brno?</seg>
<seg id="27">Here, it should be that you take several minutes to find the appropriate skips.</seg>
<seg id="28">I do not mean that we do not trierait no waste in Brno.</seg>
<seg id="29">But I have the impression that the councillors from our town, the second largest city, was not enough to this problem.</seg>
<seg id="30">Brno in the stone age of the sorting of waste not only because the citizens can still sort that paper, glass and PVC, but especially given number of skips dedicated to these wastes.</seg>
</doc>
<doc sysid="xray2" docid="xray-b">
<seg id="1">Have you tried to throw a plastic bottle in the city?</seg>
<seg id="2">It is a science, which requires most of the time and nerves of steel.</seg>
<seg id="3">The only place that I found for the moment, this is the place of Moravia in the face of Potrefena Husa.</seg>
<seg id="4">What Mr Onderka and his colleagues do not want to, but it seems sacrément shortly.</seg>
<seg id="5">Without speak of the fact that in other areas of the city it is not an easy task.</seg>
<seg id="6">Thus to many of my friends not sort their waste.</seg>
<seg id="7">For laziness.</seg>
<seg id="8">Ça their one is actually going on to reach the skips.</seg>
<seg id="9">It does not surprise me.</seg>
<seg id="10">Myself, after a holiday, I have proposed to go lay a few bottles of glass and PVC.</seg>
<seg id="11">Except that I have seen no colour lorry street Kounicova.</seg>
<seg id="12">Fortunately I have found the right place to take the tram.</seg>
<seg id="13">That said, the waste overflowed.</seg>
<seg id="14">That is, after all, the centre of Brno, which is supposed to represent the best city, not? !</seg>
<seg id="15">It is likely that ecology and so-called esthétisme are not too the Socialists of Brno.</seg>
<seg id="16">They prefer to buy the city a first league hockey which is a disgrace to the city throughout the country, instead of buying a few additional skips and propose the sorting of more raw materials for a Brno.</seg>
<seg id="17">I am pleased to be able to strengthen my impression with official statistics after dragging a moment on the Internet.</seg>
<seg id="18">data of society EKO-KOM, Brno really is the worst of all the Moravia region of the South.</seg>
<seg id="19">The budget Paroubek has removed the argentaux pension and illness</seg>
<seg id="20">After that the left has increased, despite the opinion of the government, farmers or the staff it may lack money for pensions, illness or savings housing.</seg>
<seg id="21">But also for the interest on the debt or judicial procedures.</seg>
<seg id="22">This will increase the problems of those who will govern in the second half of next year, the Finance Minister Eduard Janota.</seg>
<seg id="23">When the Social Democrats and the Communists, the increase for some classes, they rely on the fact that the Government will borrow money for sensitive, pensions or sick leave. ” It is that put the problems later, undermine the ground, " said Janota.</seg>
<seg id="24">There is on borrowed money interests to pay is higher and that it will return sooner or later.</seg>
<seg id="25">The State has not actually the choice of where draw money.</seg>
<seg id="26">If it is not reduced social aid or its expenses, it will have to raise taxes.</seg>
<seg id="27">To all those that the left has now increased: the firefighters, teachers, farmers.</seg>
<seg id="28">And to their children.</seg>
<seg id="29">The people will and should not fear for their pensions or insurance, including 1.8 billion have disappeared.</seg>
<seg id="30">But at the expense of a greater debt of the State - next year it will not 163 billion in funds, but more.</seg>
</doc>
</tstset>
