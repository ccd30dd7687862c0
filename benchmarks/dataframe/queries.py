"""db-benchmark's questions as its pandas solution asks them (pandas/groupby-pandas.py and
pandas/join-pandas.py): the same loading and the same statements, each a function
`query(pd, *tables) -> (ans, chk)` where `pd` is pandas or tessera.pandas, the tables are what
`load_groupby` / `load_join` returned, and chk is the list of sums db-benchmark logs as its
check of the answer."""

# --- groupby ---------------------------------------------------------------------------------


def load_groupby(pd, path):
    """The groupby table as groupby-pandas.py loads it: pyarrow's CSV reader, then the string
    keys as categoricals (the integer columns stay int64, v3 float64)."""
    x = pd.read_csv(path, engine='pyarrow')
    x['id1'] = x['id1'].astype('category')
    x['id2'] = x['id2'].astype('category')
    x['id3'] = x['id3'].astype('category')
    return x


def groupby_q1(pd, x):
    ans = x.groupby('id1', as_index=False, sort=False, observed=True, dropna=False).agg({'v1':'sum'})
    chk = [ans['v1'].sum()]
    return ans, chk


def groupby_q2(pd, x):
    ans = x.groupby(['id1','id2'], as_index=False, sort=False, observed=True, dropna=False).agg({'v1':'sum'})
    chk = [ans['v1'].sum()]
    return ans, chk


def groupby_q3(pd, x):
    ans = x.groupby('id3', as_index=False, sort=False, observed=True, dropna=False).agg({'v1':'sum', 'v3':'mean'})
    chk = [ans['v1'].sum(), ans['v3'].sum()]
    return ans, chk


def groupby_q4(pd, x):
    ans = x.groupby('id4', as_index=False, sort=False, observed=True, dropna=False).agg({'v1':'mean', 'v2':'mean', 'v3':'mean'})
    chk = [ans['v1'].sum(), ans['v2'].sum(), ans['v3'].sum()]
    return ans, chk


def groupby_q5(pd, x):
    ans = x.groupby('id6', as_index=False, sort=False, observed=True, dropna=False).agg({'v1':'sum', 'v2':'sum', 'v3':'sum'})
    chk = [ans['v1'].sum(), ans['v2'].sum(), ans['v3'].sum()]
    return ans, chk


def groupby_q6(pd, x):
    ans = x.groupby(['id4','id5'], as_index=False, sort=False, observed=True, dropna=False).agg({'v3': ['median','std']})
    chk = [ans['v3']['median'].sum(), ans['v3']['std'].sum()]
    return ans, chk


def groupby_q7(pd, x):
    ans = x.groupby('id3', as_index=False, sort=False, observed=True, dropna=False).agg({'v1':'max', 'v2':'min'}).assign(range_v1_v2=lambda x: x['v1']-x['v2'])[['id3','range_v1_v2']]
    chk = [ans['range_v1_v2'].sum()]
    return ans, chk


def groupby_q8(pd, x):
    ans = x[~x['v3'].isna()][['id6','v3']].sort_values('v3', ascending=False).groupby('id6', as_index=False, sort=False, observed=True, dropna=False).head(2)
    ans.reset_index(drop=True, inplace=True)
    chk = [ans['v3'].sum()]
    return ans, chk


def groupby_q9(pd, x):
    ans = x[['id2','id4','v1','v2']].groupby(['id2','id4'], as_index=False, sort=False, observed=True, dropna=False).apply(lambda x: x['v1'].corr(x['v2'])**2).rename(columns={None: "r2"})
    chk = [ans['r2'].sum()]
    return ans, chk


def groupby_q10(pd, x):
    ans = x.groupby(['id1','id2','id3','id4','id5','id6'], as_index=False, sort=False, observed=True, dropna=False).agg({'v3':'sum', 'v1':'size'})
    chk = [ans['v3'].sum(), ans['v1'].sum()]
    return ans, chk


# --- join ------------------------------------------------------------------------------------


def load_join(pd, paths):
    """The join tables as join-pandas.py loads them: pyarrow's CSV reader into pyarrow-backed
    columns, then the string keys each table holds as categoricals. `paths` maps "x",
    "small", "medium", "big" to CSV files; returns (x, small, medium, big)."""
    x = pd.read_csv(paths["x"], engine='pyarrow', dtype_backend='pyarrow')
    x['id4'] = x['id4'].astype('category')
    x['id5'] = x['id5'].astype('category')
    x['id6'] = x['id6'].astype('category')
    small = pd.read_csv(paths["small"], engine='pyarrow', dtype_backend='pyarrow')
    small['id4'] = small['id4'].astype('category')
    medium = pd.read_csv(paths["medium"], engine='pyarrow', dtype_backend='pyarrow')
    medium['id4'] = medium['id4'].astype('category')
    medium['id5'] = medium['id5'].astype('category')
    big = pd.read_csv(paths["big"], engine='pyarrow', dtype_backend='pyarrow')
    big['id4'] = big['id4'].astype('category')
    big['id5'] = big['id5'].astype('category')
    big['id6'] = big['id6'].astype('category')
    return x, small, medium, big


def join_q1(pd, x, small, medium, big):
    ans = x.merge(small, on='id1')
    chk = [ans['v1'].sum(), ans['v2'].sum()]
    return ans, chk


def join_q2(pd, x, small, medium, big):
    ans = x.merge(medium, on='id2')
    chk = [ans['v1'].sum(), ans['v2'].sum()]
    return ans, chk


def join_q3(pd, x, small, medium, big):
    ans = x.merge(medium, how='left', on='id2')
    chk = [ans['v1'].sum(), ans['v2'].sum()]
    return ans, chk


def join_q4(pd, x, small, medium, big):
    ans = x.merge(medium, on='id5')
    chk = [ans['v1'].sum(), ans['v2'].sum()]
    return ans, chk


def join_q5(pd, x, small, medium, big):
    ans = x.merge(big, on='id3')
    chk = [ans['v1'].sum(), ans['v2'].sum()]
    return ans, chk


# --- many groups (not db-benchmark's) -----------------------------------------------------------
# duplicated rows and groups about as many as the rows, or a tenth of them: where the engines'
# hash tables outgrow the caches.


def load_many(pd, path):
    """The groupby table as load_groupby loads it, with k: an integer key of about rows / 10
    values (id6 * 10 + id4 % 10)."""
    x = load_groupby(pd, path)
    x['k'] = x['id6'] * 10 + x['id4'] % 10
    return x


def many_d1(pd, x):
    ans = x[['id1','id2','id4']].drop_duplicates()
    chk = [ans['id4'].sum()]
    return ans, chk


def many_d2(pd, x):
    ans = x[['k']].drop_duplicates()
    chk = [ans['k'].sum()]
    return ans, chk


def many_d3(pd, x):
    ans = x[['id4','id5','id6']].drop_duplicates()
    chk = [ans['id6'].sum()]
    return ans, chk


def many_g1(pd, x):
    ans = x.groupby('k', as_index=False, sort=False, observed=True, dropna=False).agg({'v1':'sum', 'v3':'sum'})
    chk = [ans['v1'].sum(), ans['v3'].sum()]
    return ans, chk


def many_g2(pd, x):
    ans = x.groupby('k', as_index=False, observed=True).agg({'v3':'mean'})
    chk = [ans['k'].sum(), ans['v3'].sum()]
    return ans, chk


# The questions in db-benchmark's order: {name: (question, function)}.
GROUPBY = {
    "q1": ("sum v1 by id1", groupby_q1),
    "q2": ("sum v1 by id1:id2", groupby_q2),
    "q3": ("sum v1 mean v3 by id3", groupby_q3),
    "q4": ("mean v1:v3 by id4", groupby_q4),
    "q5": ("sum v1:v3 by id6", groupby_q5),
    "q6": ("median v3 sd v3 by id4 id5", groupby_q6),
    "q7": ("max v1 - min v2 by id3", groupby_q7),
    "q8": ("largest two v3 by id6", groupby_q8),
    "q9": ("regression v1 v2 by id2 id4", groupby_q9),
    "q10": ("sum v3 count by id1:id6", groupby_q10),
}
JOIN = {
    "q1": ("small inner on int", join_q1),
    "q2": ("medium inner on int", join_q2),
    "q3": ("medium outer on int", join_q3),
    "q4": ("medium inner on factor", join_q4),
    "q5": ("big inner on int", join_q5),
}
MANY = {
    "d1": ("drop_duplicates id1:id2 id4", many_d1),
    "d2": ("drop_duplicates k", many_d2),
    "d3": ("drop_duplicates id4:id6", many_d3),
    "g1": ("sum v1 v3 by k", many_g1),
    "g2": ("mean v3 by k, sorted", many_g2),
}
