<tstset trglang="en" setid="xray" srclang="any">
<doc sysid="xray1m" docid="xray-c">
<seg id="1">Despite efforts by the Minister Janota debt is growing more quickly and with it, the costs associated with interest.</seg>
<seg id="2">The State is going to need money for the repayer and it is more to slightly increase VAT or reduce the maternity leave the government in its package anti-déficit.</seg>
<seg id="3">It will also miss five billion to complete construction of roads and railways because of the transfer money to a few groups of voters.</seg>
<seg id="4">It is mainly what has already been decided and started that it is not possible to amend the projects to reduce the costs.</seg>
<seg id="5">All the retain, which is not free.</seg>
<seg id="6">This means delay or halt 30 major projects, and the removal of European funds is also in danger, according to the warning Karel Hanzelka, spokesman of the Ministry of Transport.</seg>
<seg id="7">The ČSSD has proposed to resolve the financial deficit very effectively - it will draw from the benefits of ČEZ) supplier and distributor of electrical energy (, that the State has in large part and contribute to the fund.</seg>
<seg id="8">The concern is that the dividend is never certain and that it is in no case of a well without substance.</seg>
<seg id="9">Last year, 18 billion that have been navigués since the ČEZ in the budget.</seg>
<seg id="10">each year, dividends are used to pay the deletion of environmental damage, to complement the pensions or serve in the pension reform.</seg>
<seg id="11">Furthermore, this gimmick is the real deficit budget of up to 5.7 per cent of GDP according to the rules of the EU.</seg>
<seg id="12">And that is far from the end of Carnival transfers.</seg>
<seg id="13">The budget for various compensation for victims of communism and crimes, and even savings housing, has fallen by almost three billion.</seg>
<seg id="14">It is not certain that the State can act without the money.</seg>
<seg id="15">It is a lottery.</seg>
<seg id="16">If we lose a procedure, we must in any case the pay, Janota.</seg>
<seg id="17">The Minister will then have to save the department or, at worst, reach the budgetary reserve of government.</seg>
<seg id="18">It also cent million in cash for a two billion, which is expected to follow online what are the costs of each administration.</seg>
<seg id="19">The first phase will start in January.</seg>
<seg id="20">If the Finance Minister no money elsewhere, the project will have to be stopped and sanctions would take place, warns Janota.</seg>
<seg id="21">Your next smartphone overcome two operating systems</seg>
<seg id="22">In the future, Americans are a mobile phone that will allow the user to move from a system of exploitation to another pressing one button.</seg>
<seg id="23">projects that have been proven seem promising.</seg>
<seg id="24">It is a button and you go to Windows Mobile to Android in seconds.</seg>
<seg id="25">It is precisely this possibility is the target of American society VMware, which deals primarily with the development of software virtualisation for computers.</seg>
<seg id="26">We will enable you to manage two user profiles on your mobile phone.</seg>
<seg id="27">You can alternate between them, you can differentiate in personal and professional</seg>
<seg id="28">The two will operate in the same time, indicated Srinivas Krishnamurti society VMware in an interview for the magazine Computerworld.</seg>
<seg id="29">It was introduced in November last year and it has been made a first demonstration a few days ago.</seg>
<seg id="30">It will be on the market in 2012.</seg>
<seg id="31">The virtualisation on the smartphones is no fiction.</seg>
<seg id="32">VMware has already successfully introduced a test version to journalists, a smartphone equipped with two operating systems.</seg>
<seg id="33">It is a Nokia N800 changed with a RAM memory of 128 MB, which served simultaneously systems Windows Mobile and Android mentioned.</seg>
<seg id="34">The development of new technologies to mobile phones is booming.</seg>
<seg id="35">Society VMware works with the American and European operators to test the virtualisation on the smartphones, and customers should have access to aircraft during 2012.</seg>
<seg id="36">The lack of snow in mountain concerns the hotel</seg>
<seg id="37">The tracks are deserted is not the issue that the operators of ski lifts.</seg>
<seg id="38">The lack of snow dissuade people to book their holidays to ski in hotels and pensions.</seg>
<seg id="39">, and it is always possible to find free rooms for all dates in the winter, including Christmas and New Year.</seg>
<seg id="40">We have many visits on our website.</seg>
</doc>
</tstset>
