from os import

if call(foo
    def bar():
        pass
